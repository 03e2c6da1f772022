#include "cli/ResolveRender.h"

#include "core/facts/FactsFile.h"
#include "core/support/Printable.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

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

json::Value renderJson(const Resolution &R, const Facts &F) {
  json::Array Packages;
  // Reserved: json::Value moves by copying when a vector grows.
  Packages.reserve(R.Packages.size());
  for (const PackageResolution &P : R.Packages) {
    json::Object O;
    O["name"] = P.Name;
    O["requested"] = P.Requested;
    O["version"] = P.Ver ? json::Value(P.Ver->str()) : json::Value(nullptr);
    O["strategy"] = strategyName(P.How);
    O["nvcc"] = P.Nvcc ? json::Value(json::Object{{"path", P.Nvcc->Path},
                                                  {"version", P.Nvcc->Ver.str()}})
                       : json::Value(nullptr);
    O["compiler"] =
        P.Compiler ? json::Value(json::Object{{"path", P.Compiler->Path},
                                              {"family", P.Compiler->Family},
                                              {"version", P.Compiler->Ver.str()},
                                              {"chosen_by", P.Compiler->ChosenBy.empty()
                                                                ? json::Value(nullptr)
                                                                : json::Value(P.Compiler->ChosenBy)}})
                   : json::Value(nullptr);
    O["archs"] = json::Array(P.Archs);
    O["archs_known"] = !P.ArchsUnknown;
    O["prebuilt_url"] =
        P.PrebuiltUrl ? json::Value(*P.PrebuiltUrl) : json::Value(nullptr);
    if (P.Fallback) {
      json::Object FB{{"name", P.Fallback->Name},
                      {"summary", P.Fallback->Summary},
                      {"impact", P.Fallback->Impact}};
      json::Object Env;
      for (const auto &[K, V] : P.Fallback->Env)
        Env[K] = V;
      FB["env"] = std::move(Env);
      O["fallback"] = std::move(FB);
    } else {
      O["fallback"] = nullptr;
    }
    std::string Explanation;
    for (size_t I = 0; I < P.Because.size(); ++I)
      Explanation += (I == 0 ? "because " : "\nand ") + P.Because[I];
    O["explanation"] = Explanation;
    O["because"] = json::Array(P.Because);
    O["not_preferred"] = P.NotPreferred.empty() ? json::Value(nullptr)
                                                : json::Value(P.NotPreferred);
    O["not_chosen"] = json::Array(P.NotChosen);
    O["hints"] = json::Array(P.Hints);
    Packages.push_back(std::move(O));
  }
  json::Object Doc{{"status", statusName(R.Status)},
                   {"packages", std::move(Packages)},
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
