#include "cli/ResolveRender.h"

#include "core/facts/FactsFile.h"
#include "core/support/JsonSupport.h"
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

/// Writes the packages' array as json::OStream(OS, 2) writes it, byte for
/// byte, from where the array starts at indentation \p Indent: a large
/// resolution has thousands of packages and tens of thousands of strings,
/// which OStream quotes a character at a time. A string that needs no
/// escape (printable ASCII without '"' or '\') is written whole; any other
/// goes through json::Value (invalid UTF-8 repaired first, as OStream does).
class PackagesJson {
public:
  PackagesJson(raw_ostream &OS, unsigned Indent) : OS(OS), Indent(Indent) {}

  void array(function_ref<void()> Items) { nest('[', ']', Items); }
  void object(function_ref<void()> Attributes) { nest('{', '}', Attributes); }
  /// An element of the enclosing array: then its value.
  void element() { next(); }
  /// "Key": in the enclosing object; then its value.
  void key(StringRef Key) {
    next();
    string(Key);
    OS << ": ";
  }
  void string(StringRef S) {
    if (isPlainJsonText(S))
      OS << '"' << S << '"';
    else
      writeJsonString(OS, S);
  }
  void null() { OS << "null"; }
  void boolean(bool B) { OS << (B ? "true" : "false"); }

  // The shapes a package's object uses.
  void attribute(StringRef Key, StringRef Value) {
    key(Key);
    string(Value);
  }
  void attributeOrNull(StringRef Key, const std::optional<std::string> &Value) {
    key(Key);
    Value ? string(*Value) : null();
  }
  void strings(StringRef Key, const std::vector<std::string> &Values) {
    key(Key);
    array([&] {
      for (const std::string &V : Values) {
        element();
        string(V);
      }
    });
  }

private:
  raw_ostream &OS;
  unsigned Indent;
  /// Per open array or object: whether it holds a value yet.
  SmallVector<bool, 8> HasValue;

  void nest(char Open, char Close, function_ref<void()> Inside) {
    OS << Open;
    Indent += 2;
    HasValue.push_back(false);
    Inside();
    Indent -= 2;
    if (HasValue.back())
      newline();
    HasValue.pop_back();
    OS << Close;
  }
  void next() {
    if (HasValue.back())
      OS << ',';
    HasValue.back() = true;
    newline();
  }
  void newline() {
    OS << '\n';
    OS.indent(Indent);
  }
};

std::optional<std::string> nonEmpty(const std::string &S) {
  return S.empty() ? std::nullopt : std::optional<std::string>(S);
}

void compiler(PackagesJson &J, StringRef Key,
              const std::optional<CompilerFacts> &C) {
  J.key(Key);
  if (!C)
    return J.null();
  J.object([&] {
    J.attributeOrNull("chosen_by", nonEmpty(C->ChosenBy));
    J.attribute("family", C->Family);
    J.attribute("path", C->Path);
    J.attribute("version", C->Ver.str());
  });
}

/// One package's object, its keys in the order llvm::json prints an
/// Object's (sorted): the same bytes as building the Object and printing it.
void writePackage(PackagesJson &J, const PackageResolution &P) {
  J.object([&] {
    J.strings("archs", P.Archs);
    J.key("archs_known");
    J.boolean(!P.ArchsUnknown);
    J.strings("because", P.Because);
    compiler(J, "compiler", P.Compiler);
    std::string Explanation;
    for (size_t I = 0; I < P.Because.size(); ++I)
      Explanation += (I == 0 ? "because " : "\nand ") + P.Because[I];
    J.attribute("explanation", Explanation);
    J.key("fallback");
    if (P.Fallback)
      J.object([&] {
        // As an Object holds them: sorted, the last of a repeated name.
        std::map<std::string, std::string> Env;
        for (const auto &[K, V] : P.Fallback->Env)
          Env[K] = V;
        J.key("env");
        J.object([&] {
          for (const auto &[K, V] : Env)
            J.attribute(K, V);
        });
        J.attribute("impact", P.Fallback->Impact);
        J.attribute("name", P.Fallback->Name);
        J.attribute("summary", P.Fallback->Summary);
      });
    else
      J.null();
    J.strings("hints", P.Hints);
    J.attribute("name", P.Name);
    J.strings("not_chosen", P.NotChosen);
    J.attributeOrNull("not_preferred", nonEmpty(P.NotPreferred));
    J.key("nvcc");
    if (P.Nvcc)
      J.object([&] {
        J.attribute("path", P.Nvcc->Path);
        J.attribute("version", P.Nvcc->Ver.str());
      });
    else
      J.null();
    J.attributeOrNull("prebuilt_url", P.PrebuiltUrl);
    J.key("requested");
    J.boolean(P.Requested);
    J.attribute("strategy", strategyName(P.How));
    J.attributeOrNull("version", P.Ver
                                     ? std::optional<std::string>(P.Ver->str())
                                     : std::nullopt);
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
      if (K == "packages") {
        J.attributeBegin(K);
        J.rawValue([&](raw_ostream &Out) {
          PackagesJson P(Out, /*Indent=*/2);
          P.array([&] {
            for (const PackageResolution &Pkg : R.Packages) {
              P.element();
              writePackage(P, Pkg);
            }
          });
        });
        J.attributeEnd();
      } else {
        J.attribute(K, *O.get(K));
      }
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
