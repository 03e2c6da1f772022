#include "cli/ResolveRender.h"

#include "core/facts/FactsFile.h"
#include "core/support/Printable.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

#include <map>

using namespace llvm;

namespace cudadeps::cli {

namespace {

/// Values in a report come from manifests, facts files and tools: each is
/// shown through printableText, so only the colours below reach the
/// terminal as escapes.
std::string shown(StringRef Text) {
  return printableText(Text, /*KeepLineBreaks=*/true);
}

struct Paint {
  bool On;
  std::string operator()(StringRef Code, StringRef Text) const {
    if (!On)
      return shown(Text);
    return ("\033[" + Code + "m" + shown(Text) + "\033[0m").str();
  }
};

std::string decision(const PackageResolution &P) {
  std::string V = P.Ver ? P.Ver->str() : "";
  switch (P.How) {
  case Strategy::Source: {
    std::string Line = V + "  build from source";
    std::vector<std::string> With;
    if (P.Nvcc)
      With.push_back("nvcc " + P.Nvcc->Ver.str() + " (" + P.Nvcc->Path + ")");
    if (P.Compiler)
      With.push_back(P.Compiler->label());
    if (!With.empty())
      Line += " with " + join(With, ", ");
    Line += P.ArchsUnknown ? std::string("; archs chosen by its build")
            : "; archs " + (P.Archs.empty() ? std::string("none")
                                            : join(P.Archs, " "));
    return Line;
  }
  case Strategy::Prebuilt:
    return V + "  prebuilt binary" +
           (P.PrebuiltUrl ? " " + *P.PrebuiltUrl : std::string());
  case Strategy::NoBuild:
    return V + "  no build needed (nothing to compile)";
  case Strategy::Fallback:
    return "cannot be built here; using fallback '" + P.Fallback->Name + "'";
  case Strategy::Unsatisfiable:
    return "cannot be built here";
  }
  llvm_unreachable("bad strategy");
}

} // namespace

void renderText(const Resolution &R, raw_ostream &OS, bool Color) {
  Paint C{Color};
  size_t Width = 0;
  for (const PackageResolution &P : R.Packages)
    Width = std::max(Width, P.Name.size());
  for (const PackageResolution &P : R.Packages) {
    StringRef Tone = P.How == Strategy::Unsatisfiable ? "31"
                     : P.How == Strategy::Fallback    ? "33"
                                                      : "32";
    std::string Name = P.Name;
    Name.resize(std::max(Width, Name.size()), ' ');
    OS << C("1", Name) << "  "
       << C(Tone, decision(P)) << '\n';
    if (!P.NotPreferred.empty() && !P.Because.empty())
      OS << "  not " << shown(P.NotPreferred) << ":\n";
    for (size_t I = 0; I < P.Because.size(); ++I)
      OS << "  " << (I == 0 ? "because " : "and ") << shown(P.Because[I])
         << '\n';
    for (const std::string &N : P.NotChosen)
      OS << "  " << shown(N) << '\n';
    for (const std::string &H : P.Hints)
      OS << C("36", "hint:") << ' ' << shown(H) << '\n';
    if (P.Fallback) {
      OS << C("33", "fallback:") << ' ' << shown(P.Fallback->Summary);
      if (!P.Fallback->Impact.empty())
        OS << " (" << shown(P.Fallback->Impact) << ")";
      OS << '\n';
      for (const auto &[K, V] : P.Fallback->Env)
        OS << "  set " << shown(K) << '=' << shown(V) << " to select it\n";
    }
  }
  for (const std::string &W : R.Warnings)
    OS << C("33", "warning:") << ' ' << shown(W) << '\n';
  if (const auto &D = R.NvccDefaultCompiler)
    OS << "nvcc's default host compiler: "
       << shown(
              D->Family + " " + D->Ver.str() + " (" + D->Path +
              (D->ChosenBy.empty() ? std::string() : ", from " + D->ChosenBy) +
              ")")
       << '\n';
  if (!R.TargetArchs.empty())
    OS << "targets: " << shown(join(R.TargetArchs, " ")) << " ("
       << shown(R.TargetOrigin) << ")\n";
  unsigned Fallbacks = count_if(R.Packages, [](const PackageResolution &P) {
    return P.How == Strategy::Fallback;
  });
  switch (R.Status) {
  case ResolveStatus::Resolved:
    OS << C("32", "resolved") << ": " << R.Packages.size() << " package"
       << (R.Packages.size() == 1 ? "" : "s") << '\n';
    break;
  case ResolveStatus::Fallback:
    OS << C("33", Fallbacks == 1 ? "resolved with a fallback"
                                 : "resolved with fallbacks")
       << ": " << Fallbacks << " of " << R.Packages.size() << " package"
       << (R.Packages.size() == 1 ? "" : "s")
       << (Fallbacks == 1 ? " uses" : " use") << " a declared fallback\n";
    break;
  case ResolveStatus::Unsatisfiable:
    OS << C("31", "unsatisfiable") << ": no buildable configuration\n";
    break;
  }
}

namespace {

/// A string value as llvm::json writes one (invalid UTF-8 repaired).
void str(json::OStream &J, StringRef Key, StringRef Value) {
  J.attribute(Key, json::Value(Value));
}

void strings(json::OStream &J, StringRef Key,
             const std::vector<std::string> &Values) {
  J.attributeArray(Key, [&] {
    for (const std::string &V : Values)
      J.value(json::Value(V));
  });
}

void compiler(json::OStream &J, StringRef Key,
              const std::optional<CompilerFacts> &C) {
  J.attributeBegin(Key);
  if (C)
    J.object([&] {
      if (C->ChosenBy.empty())
        J.attribute("chosen_by", nullptr);
      else
        str(J, "chosen_by", C->ChosenBy);
      str(J, "family", C->Family);
      str(J, "path", C->Path);
      str(J, "version", C->Ver.str());
    });
  else
    J.value(nullptr);
  J.attributeEnd();
}

/// One package's object, its keys in the order llvm::json prints an
/// Object's (sorted): the same bytes as building the Object and printing it.
void writePackage(json::OStream &J, const PackageResolution &P) {
  J.object([&] {
    strings(J, "archs", P.Archs);
    J.attribute("archs_known", !P.ArchsUnknown);
    strings(J, "because", P.Because);
    compiler(J, "compiler", P.Compiler);
    std::string Explanation;
    for (size_t I = 0; I < P.Because.size(); ++I)
      Explanation += (I == 0 ? "because " : "\nand ") + P.Because[I];
    str(J, "explanation", Explanation);
    J.attributeBegin("fallback");
    if (P.Fallback)
      J.object([&] {
        // As an Object holds them: sorted, the last of a repeated name.
        std::map<std::string, std::string> Env;
        for (const auto &[K, V] : P.Fallback->Env)
          Env[K] = V;
        J.attributeObject("env", [&] {
          for (const auto &[K, V] : Env)
            str(J, K, V);
        });
        str(J, "impact", P.Fallback->Impact);
        str(J, "name", P.Fallback->Name);
        str(J, "summary", P.Fallback->Summary);
      });
    else
      J.value(nullptr);
    J.attributeEnd();
    strings(J, "hints", P.Hints);
    str(J, "name", P.Name);
    strings(J, "not_chosen", P.NotChosen);
    if (P.NotPreferred.empty())
      J.attribute("not_preferred", nullptr);
    else
      str(J, "not_preferred", P.NotPreferred);
    J.attributeBegin("nvcc");
    if (P.Nvcc)
      J.object([&] {
        str(J, "path", P.Nvcc->Path);
        str(J, "version", P.Nvcc->Ver.str());
      });
    else
      J.value(nullptr);
    J.attributeEnd();
    if (P.PrebuiltUrl)
      str(J, "prebuilt_url", *P.PrebuiltUrl);
    else
      J.attribute("prebuilt_url", nullptr);
    J.attribute("requested", P.Requested);
    str(J, "strategy", strategyName(P.How));
    if (P.Ver)
      str(J, "version", P.Ver->str());
    else
      J.attribute("version", nullptr);
  });
}

} // namespace

void printJson(raw_ostream &OS, const json::Value &Doc, const Resolution &R) {
  const json::Object &O = *Doc.getAsObject();
  std::vector<StringRef> Keys = {"packages"};
  for (const auto &KV : O)
    Keys.push_back(KV.first);
  llvm::sort(Keys);
  json::OStream J(OS, 2);
  J.object([&] {
    for (StringRef K : Keys) {
      if (K == "packages")
        J.attributeArray(K, [&] {
          for (const PackageResolution &P : R.Packages)
            writePackage(J, P);
        });
      else
        J.attribute(K, *O.get(K));
    }
  });
}

json::Value renderJson(const Resolution &R, const Facts &F) {
  json::Object Doc{{"status", statusName(R.Status)},
                   {"target_archs", json::Array(R.TargetArchs)},
                   {"target_origin", R.TargetOrigin},
                   {"warnings", json::Array(R.Warnings)},
                   {"nvcc_default_compiler",
                    R.NvccDefaultCompiler
                        ? json::Value(json::Object{
                              {"path", R.NvccDefaultCompiler->Path},
                              {"family", R.NvccDefaultCompiler->Family},
                              {"version", R.NvccDefaultCompiler->Ver.str()},
                              {"chosen_by",
                               R.NvccDefaultCompiler->ChosenBy.empty()
                                   ? json::Value(nullptr)
                                   : json::Value(
                                         R.NvccDefaultCompiler->ChosenBy)}})
                        : json::Value(nullptr)},
                   {"facts", factsToJson(F)}};
  return json::Value(std::move(Doc));
}

} // namespace cudadeps::cli
