//===- ManifestLoader.cpp - read and validate schema-1 manifests ----------===//
//
// The loader walks the TOML tree once, table by table, reporting every
// problem it finds (unknown keys with a suggestion, wrong types, bad
// versions, specifiers, archs and templates) and keeps going. Diagnostics are
// sorted by position at the end because TOML++ iterates keys in sorted order,
// not in file order.
//
//===----------------------------------------------------------------------===//
#include "core/manifest/ManifestLoader.h"

#include "core/manifest/GitSource.h"
#include "core/support/BoundedFile.h"
#include "core/manifest/Template.h"
#include "core/support/TomlSupport.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <toml++/toml.h>

#include <algorithm>

using namespace llvm;

namespace cudadeps {

namespace {

using Region = toml::source_region;

// Keys allowed in each table.
const StringRef RootKeys[] = {"schema",   "package",  "requires",
                              "extras",   "release",  "build",
                              "prebuilt", "fallback", "project",
                              "target"};
const StringRef PackageKeys[] = {"name", "summary", "git", "tag", "build"};
const StringRef ReleaseKeys[] = {"version", "tag",    "commit",  "requires",
                                 "extras",  "archs",  "prebuilt", "source"};
const StringRef MatrixDimKeys[] = {"torch", "cuda", "python", "cxx11_abi",
                                   "platform"};
const StringRef MatrixKeys[] = {"torch",    "cuda",    "python", "cxx11_abi",
                                "platform", "exclude", "tag"};
const StringRef ArchEntryKeys[] = {"arch", "archs", "nvcc"};
const StringRef BuildKeys[] = {"command", "cmake_args", "env", "submodules",
                               "memory_per_job_gib"};
const StringRef PrebuiltKeys[] = {"url"};
const StringRef FallbackKeys[] = {"name", "summary", "impact", "env",
                                  "requires"};
const StringRef ProjectKeys[] = {"name", "requires", "registry"};
const StringRef TargetKeys[] = {"archs"};
const StringRef BuildKindNames[] = {"torch-extension", "python", "cmake",
                                    "command"};
// The first segment of a dotted fact key.
const StringRef FactNamespaces[] = {"nvcc",   "driver", "torch",    "python",
                                    "gcc",    "clang",  "triton",   "platform",
                                    "gpu",    "compute_capability"};

bool isEnvName(StringRef Name) {
  if (Name.empty() || Name.size() > 128 || isDigit(Name.front()))
    return false;
  return llvm::all_of(Name, [](char C) { return isAlnum(C) || C == '_'; });
}

bool isHexCommit(StringRef S) {
  return S.size() >= 7 && S.size() <= 40 && llvm::all_of(S, isHexDigit);
}

bool isWheelPythonTag(StringRef S) {
  // cp310, cp313t, py3
  if (!S.consume_front("cp") && !S.consume_front("py"))
    return false;
  S.consume_back("t");
  return !S.empty() && S.size() <= 3 && llvm::all_of(S, isDigit);
}

bool isPlatformTag(StringRef S) {
  return !S.empty() && S.size() <= 64 && llvm::all_of(S, [](char C) {
    return (C >= 'a' && C <= 'z') || isDigit(C) || C == '_';
  });
}

bool hasControlChar(StringRef S) {
  return llvm::any_of(S, [](char C) {
    unsigned char U = static_cast<unsigned char>(C);
    return (U < 0x20 && C != '\t') || U == 0x7f;
  });
}

/// The verdict on a requirement key (see Requirement in Manifest.h).
struct KeyVerdict {
  enum { Fact, Package, Warning, Error } Kind = Error;
  std::string Canonical;
  std::string Message;
  std::string Hint;
};

KeyVerdict judgeRequirementKey(StringRef Key) {
  KeyVerdict V;
  if (isFactKey(Key)) {
    V.Kind = KeyVerdict::Fact;
    V.Canonical = Key.str();
    return V;
  }
  std::string Shown = Key.take_front(80).str();
  // The fact keys with and without a dot, split once.
  static const auto [Dotted, Plain] = [] {
    std::pair<std::vector<StringRef>, std::vector<StringRef>> Split;
    for (StringRef F : knownFactKeys())
      (F.contains('.') ? Split.first : Split.second).push_back(F);
    return Split;
  }();

  if (Key.contains('.')) {
    StringRef Head = Key.split('.').first;
    std::optional<std::string> Near;
    unsigned Dist = ~0u;
    for (StringRef F : Dotted)
      Dist = std::min(Dist, Key.edit_distance(F, true, 3));
    if (llvm::is_contained(FactNamespaces, Head) || Dist <= 2) {
      V.Message = "unknown fact '" + Shown + "'";
      V.Hint = didYouMean(Key, knownFactKeys());
      return V;
    }
  }
  if (!isValidPackageName(Key)) {
    V.Message = "invalid requirement key '" + Shown +
                "'; expected a fact (nvcc, torch, ...) or a package name";
    return V;
  }
  // 'nvcc_version', 'torch_cuda': a fact with something glued on.
  for (StringRef F : Plain) {
    if (Key.size() > F.size() && Key.startswith(F) && Key[F.size()] == '_') {
      V.Message = "unknown fact '" + Shown + "'";
      V.Hint = "did you mean '" + F.str() + "'? (a package of this name is "
               "written '" + canonicalPackageName(Key) + "')";
      return V;
    }
  }
  V.Canonical = canonicalPackageName(Key);
  V.Kind = KeyVerdict::Package;
  for (StringRef F : Plain) {
    unsigned Limit = F.size() <= 5 ? 1 : 2;
    if (Key.edit_distance(F, true, Limit + 1) <= Limit) {
      V.Kind = KeyVerdict::Warning;
      V.Message = "'" + Shown + "' is not a fact, so it names a package";
      V.Hint = "did you mean '" + F.str() + "'?";
      break;
    }
  }
  return V;
}

/// judgeRequirementKey(), remembered per key on this thread: a registry's
/// manifests name the same few packages thousands of times, and the near
/// misses against every fact key (edit distances) were a tenth of parsing
/// them. At most MaxRemembered keys are kept, so that no input grows it
/// without bound.
KeyVerdict checkRequirementKey(StringRef Key) {
  constexpr size_t MaxRemembered = 1 << 16;
  thread_local llvm::StringMap<KeyVerdict> Known;
  if (auto It = Known.find(Key); It != Known.end())
    return It->second;
  KeyVerdict V = judgeRequirementKey(Key);
  if (Known.size() < MaxRemembered && Key.size() <= 256)
    Known.try_emplace(Key, V);
  return V;
}

class Loader {
public:
  Loader(DiagnosticEngine &Diags, StringRef File, StringRef Text)
      : Diags(Diags), File(File.str()), Text(Text) {}

  void run(const toml::table &Root, Manifest &M);

private:
  DiagnosticEngine &Diags;
  std::string File;
  StringRef Text;

  SourceLocation loc(const Region &R) const { return locationOf(File, R); }
  void error(const SourceLocation &L, const Twine &Message,
             StringRef Hint = {}) {
    Diags.error(L.Line, L.Column, Message, Hint);
  }
  void error(const Region &R, const Twine &Message, StringRef Hint = {}) {
    error(loc(R), Message, Hint);
  }
  void warning(const SourceLocation &L, const Twine &Message,
               StringRef Hint = {}) {
    Diags.warning(L.Line, L.Column, Message, Hint);
  }

  /// The location of byte \p Offset of a string value whose opening quote is
  /// at \p L, when the source writes it without escapes; else \p L.
  SourceLocation locInside(const SourceLocation &L, StringRef Value,
                           size_t Offset) const;

  void checkKeys(const toml::table &T, ArrayRef<StringRef> Known,
                 StringRef Where);
  const toml::table *getTable(const toml::table &T, StringRef Key,
                              StringRef Where);
  std::optional<Located> getString(const toml::table &T, StringRef Key,
                                   StringRef Where, bool Required);
  std::optional<Located> asString(const toml::node &N, const Twine &What);
  std::optional<std::vector<Located>>
  getStringArray(const toml::table &T, StringRef Key, StringRef Where);
  std::optional<bool> getBool(const toml::table &T, StringRef Key,
                              StringRef Where);
  void checkTemplateValue(const Located &V);
  void checkTagValue(const Located &V);
  void checkGitProblem(const Located &V, const std::optional<GitProblem> &P);
  std::vector<Arch> getArchs(const toml::table &T, StringRef Where,
                             bool AllowTables);
  std::optional<Located> checkArchName(const Located &L);
  void parseArchEntry(const toml::table &E, std::vector<Arch> &Out);
  std::map<std::string, Located> getEnv(const toml::table &T, StringRef Key,
                                        StringRef Where);

  void parseRequires(const toml::table &T, StringRef Where,
                     StringRef SelfName, RequirementMap &Out);
  void addRequirement(StringRef Key, const toml::node &Value,
                      const Region &KeyRegion, StringRef Where,
                      StringRef SelfName, RequirementMap &Out);
  void parsePackage(const toml::table &Root, const toml::table &PkgTable,
                    Package &P);
  void parseRelease(const toml::table &T, StringRef PkgName, Release &R);
  std::optional<PrebuiltMatrix> parseMatrix(const toml::table &T);
  void parseDims(const toml::table &T, StringRef Where, MatrixDims &M);
  void parseExtras(const toml::table &T, StringRef Where, StringRef SelfName,
                   ExtrasMap &Out);
  void parseBuild(const toml::table &T, BuildSpec &B);
  void parseFallback(const toml::table &T, StringRef PkgName, Fallback &F);
  void parseProject(const toml::table &Root, const toml::table &T,
                    Project &P);
  void parseProjectRequirement(const Located &S, RequirementMap &Out);
};

SourceLocation Loader::locInside(const SourceLocation &L, StringRef Value,
                                 size_t Offset) const {
  std::string Line = Diags.line(L.Line);
  if (L.Column == 0 || L.Column > Line.size())
    return L;
  StringRef Raw = StringRef(Line).drop_front(L.Column - 1);
  if (Raw.empty() || (Raw.front() != '"' && Raw.front() != '\''))
    return L;
  Raw = Raw.drop_front();
  if (Offset > Value.size() || !Raw.startswith(Value.take_front(Offset)) ||
      StringRef(Value.take_front(Offset)).contains('\\'))
    return L;
  SourceLocation Out = L;
  Out.Column = L.Column + 1 + static_cast<unsigned>(Offset);
  return Out;
}

void Loader::checkKeys(const toml::table &T, ArrayRef<StringRef> Known,
                       StringRef Where) {
  for (auto &&[Key, Value] : T) {
    StringRef K(Key.str().data(), Key.str().size());
    if (llvm::is_contained(Known, K))
      continue;
    error(Key.source(), "unknown key '" + K.take_front(80) + "' in " + Where,
          didYouMean(K, Known));
  }
}

const toml::table *Loader::getTable(const toml::table &T, StringRef Key,
                                    StringRef Where) {
  const toml::node *N = T.get(std::string_view(Key.data(), Key.size()));
  if (!N)
    return nullptr;
  if (const toml::table *Sub = N->as_table())
    return Sub;
  error(N->source(), "'" + Key + "' in " + Where + " must be a table, not " +
                         typeName(*N));
  return nullptr;
}

std::optional<Located> Loader::asString(const toml::node &N,
                                        const Twine &What) {
  const toml::value<std::string> *S = N.as_string();
  if (!S) {
    error(N.source(), What + " must be a string, not " + typeName(N));
    return std::nullopt;
  }
  const std::string &V = S->get();
  if (V.size() > MaxManifestValueBytes) {
    error(N.source(), What + " is too long (" + Twine(V.size()) +
                          " bytes; the limit is " +
                          Twine(MaxManifestValueBytes) + ")");
    return std::nullopt;
  }
  if (hasControlChar(V)) {
    error(N.source(), What + " contains a control character");
    return std::nullopt;
  }
  return Located{V, loc(N.source())};
}

std::optional<Located> Loader::getString(const toml::table &T, StringRef Key,
                                         StringRef Where, bool Required) {
  const toml::node *N = T.get(std::string_view(Key.data(), Key.size()));
  if (!N) {
    if (Required)
      error(T.source(), "missing required key '" + Key + "' in " + Where);
    return std::nullopt;
  }
  std::optional<Located> S = asString(*N, "'" + Key + "' in " + Where);
  if (S && Required && StringRef(S->Value).trim().empty()) {
    error(S->Loc, "'" + Key + "' in " + Where + " must not be empty");
    return std::nullopt;
  }
  return S;
}

std::optional<std::vector<Located>>
Loader::getStringArray(const toml::table &T, StringRef Key, StringRef Where) {
  const toml::node *N = T.get(std::string_view(Key.data(), Key.size()));
  if (!N)
    return std::nullopt;
  const toml::array *A = N->as_array();
  if (!A) {
    error(N->source(), "'" + Key + "' in " + Where +
                           " must be an array of strings, not " + typeName(*N));
    return std::nullopt;
  }
  std::vector<Located> Out;
  for (const toml::node &E : *A)
    if (auto S = asString(E, "each entry of '" + Key + "' in " + Where))
      Out.push_back(std::move(*S));
  return Out;
}

std::optional<bool> Loader::getBool(const toml::table &T, StringRef Key,
                                    StringRef Where) {
  const toml::node *N = T.get(std::string_view(Key.data(), Key.size()));
  if (!N)
    return std::nullopt;
  if (const auto *B = N->as_boolean())
    return B->get();
  error(N->source(), "'" + Key + "' in " + Where + " must be true or false, not " +
                         typeName(*N));
  return std::nullopt;
}

void Loader::checkTemplateValue(const Located &V) {
  for (const TemplateProblem &P : checkTemplate(V.Value))
    error(locInside(V.Loc, V.Value, P.Offset), P.Message, P.Hint);
}

void Loader::checkGitProblem(const Located &V,
                             const std::optional<GitProblem> &P) {
  if (P)
    error(locInside(V.Loc, V.Value, P->Offset), P->Message, P->Hint);
}

/// A tag template, and the tag it makes (with each placeholder standing for
/// a plain version) as git reads a tag name.
void Loader::checkTagValue(const Located &V) {
  std::vector<TemplateProblem> Problems = checkTemplate(V.Value);
  for (const TemplateProblem &P : Problems)
    error(locInside(V.Loc, V.Value, P.Offset), P.Message, P.Hint);
  if (!Problems.empty())
    return;
  Expected<std::string> Tag = expandTemplate(
      V.Value, [](StringRef) -> std::optional<std::string> { return "0"; });
  if (!Tag) {
    consumeError(Tag.takeError());
    return;
  }
  std::optional<GitProblem> P = checkGitRef(*Tag);
  // Offsets past the first placeholder do not map back onto the template.
  if (P && P->Offset > StringRef(V.Value).find('{'))
    P->Offset = 0;
  checkGitProblem(V, P);
}

std::optional<Located> Loader::checkArchName(const Located &L) {
  if (isValidArch(L.Value))
    return L;
  StringRef V(L.Value);
  std::string Hint = archHint(V.take_front(40));
  error(L.Loc, "invalid arch '" + V.take_front(40) +
                   "'; expected sm_NN, sm_NNa or sm_NNf",
        Hint);
  return std::nullopt;
}

/// { arch = "sm_80" } or { archs = [...], nvcc = ">=12.8" }.
void Loader::parseArchEntry(const toml::table &E, std::vector<Arch> &Out) {
  const StringRef Where = "an archs entry";
  checkKeys(E, ArchEntryKeys, Where);
  std::vector<Located> Names;
  if (auto One = getString(E, "arch", Where, false))
    Names.push_back(std::move(*One));
  if (auto Many = getStringArray(E, "archs", Where))
    for (Located &L : *Many)
      Names.push_back(std::move(L));
  if (!E.contains("arch") && !E.contains("archs"))
    error(E.source(), "an archs entry needs 'arch' or 'archs'",
          "e.g. { archs = [\"sm_100\", \"sm_120\"], nvcc = \">=12.8\" }");
  std::optional<VersionSet> Cond;
  std::string CondText;
  if (auto C = getString(E, "nvcc", Where, false)) {
    Expected<VersionSet> R = VersionSet::parse(C->Value);
    if (!R) {
      error(C->Loc, "bad nvcc condition: " + toString(R.takeError()));
      return;
    }
    if (R->isEmpty()) {
      error(C->Loc, "nvcc condition '" + C->Value + "' matches no version");
      return;
    }
    Cond = std::move(*R);
    CondText = C->Value;
  }
  for (const Located &L : Names) {
    if (!checkArchName(L))
      continue;
    Arch A{L.Value, L.Loc};
    A.Passed = true;
    A.NvccCond = Cond;
    A.NvccCondText = CondText;
    Out.push_back(std::move(A));
  }
}

std::vector<Arch> Loader::getArchs(const toml::table &T, StringRef Where,
                                   bool AllowTables) {
  std::vector<Arch> Out;
  const toml::node *N = T.get("archs");
  if (!N)
    return Out;
  const toml::array *List = N->as_array();
  if (!List) {
    error(N->source(), "'archs' in " + Where + " must be an array of " +
                           (AllowTables ? "strings or tables" : "strings") +
                           ", not " + typeName(*N));
    return Out;
  }
  for (const toml::node &E : *List) {
    if (const toml::table *Entry = E.as_table(); Entry && AllowTables) {
      parseArchEntry(*Entry, Out);
      continue;
    }
    std::optional<Located> S = asString(
        E, AllowTables ? "each entry of 'archs' in " + Where +
                             " (a string or a table)"
                       : "each entry of 'archs' in " + Where);
    if (!S)
      continue;
    if (checkArchName(*S))
      Out.push_back({S->Value, S->Loc});
  }
  StringSet<> Seen;
  std::vector<Arch> Unique;
  for (Arch &A : Out) {
    if (!Seen.insert(A.Name).second) {
      error(A.Loc, "duplicate arch '" + A.Name + "'");
      continue;
    }
    Unique.push_back(std::move(A));
  }
  return Unique;
}

std::map<std::string, Located> Loader::getEnv(const toml::table &T,
                                              StringRef Key, StringRef Where) {
  std::map<std::string, Located> Out;
  const toml::table *Env = getTable(T, Key, Where);
  if (!Env)
    return Out;
  std::string EnvWhere = (Where.drop_back().str() + "." + Key.str() + "]");
  if (Where.startswith("[["))
    EnvWhere = "[" + Where.drop_front(2).drop_back(2).str() + "." + Key.str() +
               "]";
  for (auto &&[K, V] : *Env) {
    StringRef Name(K.str().data(), K.str().size());
    if (!isEnvName(Name)) {
      error(K.source(), "invalid environment variable name '" +
                            Name.take_front(80) + "' in " + EnvWhere);
      continue;
    }
    std::optional<Located> S =
        asString(V, "'" + Name + "' in " + EnvWhere);
    if (!S)
      continue;
    checkTemplateValue(*S);
    Out.emplace(Name.str(), std::move(*S));
  }
  return Out;
}

void Loader::addRequirement(StringRef Key, const toml::node &Value,
                            const Region &KeyRegion, StringRef Where,
                            StringRef SelfName, RequirementMap &Out) {
  SourceLocation KeyLoc = loc(KeyRegion);
  // "fla-core[cuda]": a package with extras.
  std::vector<std::string> Extras;
  if (Key.endswith("]") && Key.contains('[')) {
    auto [Base, List] = Key.drop_back().split('[');
    SmallVector<StringRef, 4> Parts;
    List.split(Parts, ',');
    for (StringRef E : Parts) {
      E = E.trim();
      if (!isValidPackageName(E)) {
        error(KeyLoc, "invalid extra '" + E.take_front(40) + "' in '" +
                          Key.take_front(80) + "'");
        return;
      }
      Extras.push_back(canonicalPackageName(E));
    }
    if (isFactKey(Base.trim()) || !isValidPackageName(Base.trim())) {
      error(KeyLoc, "extras are only for packages, not '" +
                        Base.take_front(80) + "'");
      return;
    }
    Key = Base.trim();
  }
  KeyVerdict V = checkRequirementKey(Key);
  if (V.Kind == KeyVerdict::Error) {
    error(KeyLoc, V.Message + " in " + Where, V.Hint);
    return;
  }
  if (V.Kind == KeyVerdict::Warning)
    warning(KeyLoc, V.Message, V.Hint);
  std::optional<Located> S =
      asString(Value, "requirement '" + Key.take_front(80) + "'");
  if (!S)
    return;
  if (!SelfName.empty() && V.Canonical == SelfName) {
    error(KeyLoc, "package '" + Key + "' cannot require itself");
    return;
  }
  Expected<VersionSet> Range = VersionSet::parse(S->Value);
  if (!Range) {
    error(S->Loc, "bad specifier for '" + Key + "': " +
                      toString(Range.takeError()));
    return;
  }
  if (Range->isEmpty()) {
    error(S->Loc, "specifier '" + S->Value + "' for '" + Key +
                      "' matches no version");
    return;
  }
  auto [It, Inserted] = Out.try_emplace(V.Canonical);
  if (!Inserted) {
    error(KeyLoc, "duplicate requirement '" + Key + "' in " + Where +
                      " (also on line " + Twine(It->second.KeyLoc.Line) + ")");
    return;
  }
  It->second.Key = V.Canonical;
  It->second.Range = std::move(*Range);
  It->second.Extras = std::move(Extras);
  It->second.Text = S->Value;
  It->second.Loc = S->Loc;
  It->second.KeyLoc = KeyLoc;
}

void Loader::parseExtras(const toml::table &T, StringRef Where,
                         StringRef SelfName, ExtrasMap &Out) {
  for (auto &&[K, V] : T) {
    StringRef Name(K.str().data(), K.str().size());
    if (!isValidPackageName(Name)) {
      error(K.source(), "invalid extra name '" + Name.take_front(80) + "' in " +
                            Where);
      continue;
    }
    const toml::table *Reqs = V.as_table();
    if (!Reqs) {
      error(V.source(), "extra '" + Name + "' in " + Where +
                            " must be a table of requirements, not " +
                            typeName(V));
      continue;
    }
    RequirementMap &R = Out[canonicalPackageName(Name)];
    parseRequires(*Reqs, ("[" + Where.drop_front().drop_back() + "." + Name +
                          "]")
                             .str(),
                  SelfName, R);
  }
}

void Loader::parseRequires(const toml::table &T, StringRef Where,
                           StringRef SelfName, RequirementMap &Out) {
  // `torch.cuda = "..."` written unquoted is a nested table in TOML:
  // flatten it back to the dotted key.
  struct Frame {
    const toml::table *Table;
    std::string Prefix;
  };
  std::vector<Frame> Stack{{&T, ""}};
  while (!Stack.empty()) {
    Frame F = Stack.back();
    Stack.pop_back();
    for (auto &&[K, V] : *F.Table) {
      std::string Key = F.Prefix + std::string(K.str());
      if (const toml::table *Sub = V.as_table()) {
        if (F.Prefix.empty() && llvm::is_contained(FactNamespaces, Key)) {
          Stack.push_back({Sub, Key + "."});
          continue;
        }
      }
      addRequirement(Key, V, K.source(), Where, SelfName, Out);
    }
  }
}

void Loader::parseRelease(const toml::table &T, StringRef PkgName,
                          Release &R) {
  checkKeys(T, ReleaseKeys, "[[release]]");
  if (std::optional<Located> V = getString(T, "version", "[[release]]", true)) {
    R.VersionText = V->Value;
    R.Loc = V->Loc;
    Expected<Version> Ver = Version::parse(V->Value);
    if (!Ver)
      error(V->Loc, "bad version '" + StringRef(V->Value).take_front(80) +
                        "': " + toString(Ver.takeError()));
    else
      R.Ver = std::move(*Ver);
  } else if (!T.contains("version")) {
    R.Loc = loc(T.source());
  }
  if (std::optional<Located> Tag = getString(T, "tag", "[[release]]", false)) {
    checkTagValue(*Tag);
    R.Tag = std::move(*Tag);
  }
  if (std::optional<Located> Src =
          getString(T, "source", "[[release]]", false)) {
    if (StringRef(Src->Value).trim().empty())
      error(Src->Loc, "'source' in [[release]] is empty",
            "name the files (and tag or build) the release was read from");
    else
      R.Source = std::move(*Src);
  }
  if (std::optional<Located> C = getString(T, "commit", "[[release]]", false)) {
    if (!isHexCommit(C->Value))
      error(C->Loc, "commit '" + StringRef(C->Value).take_front(80) +
                        "' is not a git commit id (7 to 40 hex digits)");
    else
      R.Commit = std::move(*C);
  }
  if (const toml::table *Req = getTable(T, "requires", "[[release]]"))
    parseRequires(*Req, "[release.requires]", PkgName, R.Requires);
  if (const toml::table *X = getTable(T, "extras", "[[release]]"))
    parseExtras(*X, "[release.extras]", PkgName, R.Extras);
  R.Archs = getArchs(T, "[[release]]", /*AllowTables=*/true);
  if (const toml::table *M = getTable(T, "prebuilt", "[[release]]"))
    R.Prebuilt = parseMatrix(*M);
}

void Loader::parseDims(const toml::table &T, StringRef Where, MatrixDims &M) {
  auto ForEach = [&](StringRef Key, auto Fn) {
    const toml::node *N = T.get(std::string_view(Key.data(), Key.size()));
    if (!N)
      return;
    const toml::array *A = N->as_array();
    if (!A) {
      error(N->source(), "'" + Key + "' in " + Where +
                             " must be an array, not " + typeName(*N));
      return;
    }
    for (const toml::node &E : *A)
      Fn(E);
  };
  auto VersionEntry = [&](StringRef Key, std::vector<Version> &Out,
                          bool AllowInt) {
    return [&, Key, AllowInt](const toml::node &E) {
      if (AllowInt && E.is_integer()) {
        int64_t I = E.as_integer()->get();
        if (I < 0 || I > 1000) {
          error(E.source(), "'" + Key + "' entry " + Twine(I) +
                                " is not a version");
          return;
        }
        Out.push_back(Version({static_cast<uint64_t>(I)}));
        return;
      }
      if (E.is_floating_point()) {
        error(E.source(),
              "'" + Key + "' entries must be strings, not floats",
              "write the version quoted: \"2.10\" (a float 2.10 is 2.1)");
        return;
      }
      std::optional<Located> S = asString(E, "each entry of '" + Key + "'");
      if (!S)
        return;
      Expected<Version> V = Version::parse(S->Value);
      if (!V) {
        error(S->Loc, "bad version '" + StringRef(S->Value).take_front(80) +
                          "' in '" + Key + "': " + toString(V.takeError()));
        return;
      }
      Out.push_back(std::move(*V));
    };
  };
  ForEach("torch", VersionEntry("torch", M.Torch, false));
  ForEach("cuda", VersionEntry("cuda", M.Cuda, true));
  ForEach("python", [&](const toml::node &E) {
    std::optional<Located> S = asString(E, "each entry of 'python'");
    if (!S)
      return;
    if (!isWheelPythonTag(S->Value)) {
      error(S->Loc, "'" + StringRef(S->Value).take_front(40) +
                        "' is not a python wheel tag",
            "write the interpreter tag, e.g. cp312");
      return;
    }
    M.Python.push_back(S->Value);
  });
  ForEach("cxx11_abi", [&](const toml::node &E) {
    if (const auto *B = E.as_boolean()) {
      M.Cxx11Abi.push_back(B->get());
      return;
    }
    error(E.source(), "each entry of 'cxx11_abi' must be true or false, not " +
                          typeName(E));
  });
  ForEach("platform", [&](const toml::node &E) {
    std::optional<Located> S = asString(E, "each entry of 'platform'");
    if (!S)
      return;
    if (!isPlatformTag(S->Value)) {
      error(S->Loc, "'" + StringRef(S->Value).take_front(40) +
                        "' is not a wheel platform tag",
            "e.g. linux_x86_64, linux_aarch64");
      return;
    }
    M.Platform.push_back(S->Value);
  });
}

std::optional<PrebuiltMatrix> Loader::parseMatrix(const toml::table &T) {
  const StringRef Where = "[release.prebuilt]";
  checkKeys(T, MatrixKeys, Where);
  PrebuiltMatrix M;
  M.Loc = loc(T.source());
  parseDims(T, Where, M);
  if (std::optional<Located> Tag = getString(T, "tag", Where, false)) {
    if (!placeholdersIn(Tag->Value).empty())
      error(Tag->Loc, "'tag' in [release.prebuilt] is a release tag, not a "
                      "template");
    else
      checkTagValue(*Tag);
    M.Tag = std::move(*Tag);
  }
  if (const toml::node *N = T.get("exclude")) {
    if (!N->is_array_of_tables()) {
      error(N->source(), "'exclude' in [release.prebuilt] must be an array of "
                         "tables, not " + typeName(*N),
            "e.g. exclude = [{ torch = [\"2.8\"], cuda = [11] }]");
    } else {
      for (const toml::node &E : *N->as_array()) {
        const toml::table &Entry = *E.as_table();
        checkKeys(Entry, MatrixDimKeys, "an exclude entry");
        MatrixExclude X;
        X.Loc = loc(Entry.source());
        parseDims(Entry, "an exclude entry", X);
        if (Entry.empty())
          error(X.Loc, "an empty exclude entry would exclude every binary");
        M.Exclude.push_back(std::move(X));
      }
    }
  }
  return M;
}

void Loader::parseBuild(const toml::table &T, BuildSpec &B) {
  const StringRef Where = "[build]";
  checkKeys(T, BuildKeys, Where);
  B.Loc = loc(T.source());
  if (auto Cmd = getStringArray(T, "command", Where)) {
    if (Cmd->empty())
      error(T.get("command")->source(), "'command' in [build] is empty");
    for (const Located &A : *Cmd)
      checkTemplateValue(A);
    B.Command = std::move(*Cmd);
  }
  if (auto Args = getStringArray(T, "cmake_args", Where)) {
    for (const Located &A : *Args)
      checkTemplateValue(A);
    B.CMakeArgs = std::move(*Args);
  }
  B.Env = getEnv(T, "env", Where);
  if (std::optional<bool> S = getBool(T, "submodules", Where))
    B.Submodules = *S;
  if (const toml::node *N = T.get("memory_per_job_gib")) {
    std::optional<double> V;
    if (const auto *I = N->as_integer())
      V = static_cast<double>(I->get());
    else if (const auto *F = N->as_floating_point())
      V = F->get();
    if (!V)
      error(N->source(), "'memory_per_job_gib' in [build] must be a number, not " +
                             typeName(*N));
    else if (!(*V > 0 && *V <= 4096))
      error(N->source(),
            "'memory_per_job_gib' in [build] must be between 0 and 4096");
    else
      B.MemoryPerJobGib = V;
  }
}

void Loader::parseFallback(const toml::table &T, StringRef PkgName,
                           Fallback &F) {
  const StringRef Where = "[[fallback]]";
  checkKeys(T, FallbackKeys, Where);
  F.Loc = loc(T.source());
  if (auto Name = getString(T, "name", Where, true)) {
    F.Loc = Name->Loc;
    if (!isValidPackageName(Name->Value))
      error(Name->Loc, "invalid fallback name '" +
                           StringRef(Name->Value).take_front(80) +
                           "'; use letters, digits, '-', '_' and '.'");
    F.Name = Name->Value;
  }
  if (auto S = getString(T, "summary", Where, true))
    F.Summary = S->Value;
  // A fallback always says what it costs.
  if (auto S = getString(T, "impact", Where, true))
    F.Impact = S->Value;
  F.Env = getEnv(T, "env", Where);
  if (const toml::table *Req = getTable(T, "requires", Where))
    parseRequires(*Req, "[fallback.requires]", PkgName, F.Requires);
}

void Loader::parsePackage(const toml::table &Root, const toml::table &T,
                          Package &P) {
  const StringRef Where = "[package]";
  checkKeys(T, PackageKeys, Where);
  P.Loc = loc(T.source());
  if (auto Name = getString(T, "name", Where, true)) {
    P.NameLoc = Name->Loc;
    P.Name = Name->Value;
    if (!isValidPackageName(Name->Value))
      error(Name->Loc,
            "invalid package name '" + StringRef(Name->Value).take_front(80) +
                "'; names use letters, digits, '-', '_' and '.', and start "
                "and end with a letter or digit");
    else if (isFactKey(Name->Value))
      error(Name->Loc, "'" + Name->Value +
                           "' is a fact that cudadeps probes, not a package "
                           "name");
  }
  if (auto S = getString(T, "summary", Where, false))
    P.Summary = S->Value;
  if (auto G = getString(T, "git", Where, false)) {
    std::optional<GitProblem> Problem =
        checkGitUrl(G->Value, allowedGitSchemes());
    checkGitProblem(*G, Problem);
    if (!Problem)
      P.Git = std::move(*G);
  }
  P.Tag = {"v{version}", P.Loc};
  if (auto Tag = getString(T, "tag", Where, false)) {
    checkTagValue(*Tag);
    P.Tag = std::move(*Tag);
  }
  if (auto B = getString(T, "build", Where, true)) {
    P.KindLoc = B->Loc;
    if (std::optional<BuildKind> K = parseBuildKind(B->Value))
      P.Kind = *K;
    else
      error(B->Loc,
            "unknown build kind '" + StringRef(B->Value).take_front(40) +
                "'; expected torch-extension, python, cmake or command",
            didYouMean(B->Value, BuildKindNames));
  }

  std::string Self = isValidPackageName(P.Name) ? P.canonicalName() : "";
  if (const toml::table *Req = getTable(Root, "requires", "the manifest"))
    parseRequires(*Req, "[requires]", Self, P.Requires);
  if (const toml::table *X = getTable(Root, "extras", "the manifest"))
    parseExtras(*X, "[extras]", Self, P.Extras);

  if (const toml::node *N = Root.get("release")) {
    const toml::array *A = N->as_array();
    if (!A || !N->is_array_of_tables()) {
      error(N->source(), "'release' must be an array of tables ([[release]]), "
                         "not " + typeName(*N));
    } else {
      // Reserved: a release is large, and moving hundreds of them as the
      // vector grows was a tenth of parsing a registry.
      P.Releases.reserve(A->size());
      for (const toml::node &E : *A) {
        Release R;
        parseRelease(*E.as_table(), Self, R);
        if (!R.VersionText.empty() && !R.Ver.release().empty()) {
          auto Dup = llvm::find_if(P.Releases, [&](const Release &O) {
            return !O.Ver.release().empty() && O.Ver == R.Ver;
          });
          if (Dup != P.Releases.end()) {
            error(R.Loc, "duplicate release '" + R.VersionText +
                             "' (also on line " + Twine(Dup->Loc.Line) + ")");
            continue;
          }
        }
        P.Releases.push_back(std::move(R));
      }
    }
  }

  if (const toml::table *B = getTable(Root, "build", "the manifest"))
    parseBuild(*B, P.Build);
  if (const toml::table *Pre = getTable(Root, "prebuilt", "the manifest")) {
    checkKeys(*Pre, PrebuiltKeys, "[prebuilt]");
    if (auto Url = getString(*Pre, "url", "[prebuilt]", true)) {
      checkTemplateValue(*Url);
      P.PrebuiltUrl = std::move(*Url);
    }
  }
  if (const toml::node *N = Root.get("fallback")) {
    if (!N->is_array_of_tables()) {
      error(N->source(), "'fallback' must be an array of tables "
                         "([[fallback]]), not " + typeName(*N));
    } else {
      for (const toml::node &E : *N->as_array()) {
        Fallback F;
        parseFallback(*E.as_table(), Self, F);
        auto Dup = llvm::find_if(P.Fallbacks, [&](const Fallback &O) {
          return !F.Name.empty() && O.Name == F.Name;
        });
        if (Dup != P.Fallbacks.end()) {
          error(F.Loc, "duplicate fallback '" + F.Name + "' (also on line " +
                           Twine(Dup->Loc.Line) + ")");
          continue;
        }
        P.Fallbacks.push_back(std::move(F));
      }
    }
  }
}

void Loader::parseProjectRequirement(const Located &S, RequirementMap &Out) {
  StringRef Whole(S.Value);
  StringRef Str = Whole.ltrim();
  auto At = [&](StringRef Part) {
    return locInside(S.Loc, S.Value, Part.data() - Whole.data());
  };
  auto Fail = [&](StringRef Part, const Twine &Why, StringRef Hint = {}) {
    error(At(Part), "bad requirement '" + Whole.take_front(80) + "': " + Why,
          Hint);
  };
  if (Str.trim().empty()) {
    error(S.Loc, "empty requirement; expected a package name such as "
                 "\"causal-conv1d>=1.5\"");
    return;
  }
  StringRef Name = Str.take_while(
      [](char C) { return isAlnum(C) || C == '-' || C == '_' || C == '.'; });
  if (Name.empty()) {
    Fail(Str, "expected a package name at the start");
    return;
  }
  StringRef Rest = Str.drop_front(Name.size()).ltrim();
  std::vector<std::string> Extras;
  if (Rest.consume_front("[")) {
    size_t Close = Rest.find(']');
    if (Close == StringRef::npos) {
      Fail(Rest, "unterminated extras list; expected ']'");
      return;
    }
    SmallVector<StringRef, 4> Parts;
    Rest.take_front(Close).split(Parts, ',');
    for (StringRef E : Parts) {
      E = E.trim();
      if (!isValidPackageName(E)) {
        Fail(E.empty() ? Rest : E, "invalid extra '" + E + "'");
        return;
      }
      Extras.push_back(canonicalPackageName(E));
    }
    Rest = Rest.drop_front(Close + 1).ltrim();
  }
  if (Rest.startswith("@")) {
    Fail(Rest, "direct references ('name @ url') are not supported",
         "name a package manifest in a registry instead");
    return;
  }
  if (size_t Semi = Rest.find(';'); Semi != StringRef::npos) {
    Fail(Rest.drop_front(Semi), "environment markers are not supported");
    return;
  }
  StringRef Spec = Rest.trim();
  if (Spec.startswith("(")) {
    if (!Spec.endswith(")")) {
      Fail(Spec, "unbalanced parenthesis in the specifier");
      return;
    }
    Spec = Spec.drop_front().drop_back().trim();
  }
  KeyVerdict V = checkRequirementKey(Name);
  if (V.Kind == KeyVerdict::Error) {
    error(At(Name), V.Message + " in [project] requires", V.Hint);
    return;
  }
  if (V.Kind == KeyVerdict::Warning)
    warning(At(Name), V.Message, V.Hint);
  if (!Spec.empty() && (isAlnum(Spec.front()) || Spec.front() == '_')) {
    Fail(Spec, "expected a version specifier such as '>=1.0' after the name '" +
                   Name + "'");
    return;
  }
  VersionSet Range = VersionSet::any();
  if (!Spec.empty() && Spec != "*") {
    Expected<VersionSet> R = VersionSet::parse(Spec);
    if (!R) {
      Fail(Spec, toString(R.takeError()));
      return;
    }
    if (R->isEmpty()) {
      Fail(Spec, "'" + Spec + "' matches no version");
      return;
    }
    Range = std::move(*R);
  }
  auto [It, Inserted] = Out.try_emplace(V.Canonical);
  if (!Inserted) {
    error(S.Loc, "duplicate requirement '" + Name + "' in [project] requires (also on line " +
                     Twine(It->second.Loc.Line) + ")");
    return;
  }
  Requirement &Req = It->second;
  Req.Key = V.Canonical;
  Req.Range = std::move(Range);
  Req.Text = Spec.empty() ? "*" : Spec.str();
  Req.Extras = std::move(Extras);
  Req.Loc = S.Loc;
  Req.KeyLoc = At(Name);
}

void Loader::parseProject(const toml::table &Root, const toml::table &T,
                          Project &P) {
  const StringRef Where = "[project]";
  checkKeys(T, ProjectKeys, Where);
  P.Loc = loc(T.source());
  if (auto Name = getString(T, "name", Where, true)) {
    P.NameLoc = Name->Loc;
    P.Name = Name->Value;
    if (!isValidPackageName(Name->Value))
      error(Name->Loc, "invalid project name '" +
                           StringRef(Name->Value).take_front(80) +
                           "'; names use letters, digits, '-', '_' and '.'");
  }
  if (auto Reqs = getStringArray(T, "requires", Where))
    for (const Located &S : *Reqs)
      parseProjectRequirement(S, P.Requires);
  if (auto Dirs = getStringArray(T, "registry", Where)) {
    StringRef Base = sys::path::parent_path(File);
    for (Located &D : *Dirs) {
      if (D.Value.empty()) {
        error(D.Loc, "empty registry directory in [project]");
        continue;
      }
      SmallString<256> Path(D.Value);
      if (sys::path::is_relative(Path) && !Base.empty()) {
        Path = Base;
        sys::path::append(Path, D.Value);
      }
      P.Registry.push_back({std::string(Path.str()), D.Loc});
    }
  }
  if (const toml::table *Target = getTable(Root, "target", "the manifest")) {
    checkKeys(*Target, TargetKeys, "[target]");
    P.TargetArchs = getArchs(*Target, "[target]", /*AllowTables=*/false);
  }
}

void Loader::run(const toml::table &Root, Manifest &M) {
  checkKeys(Root, RootKeys, "the manifest");

  if (const toml::node *S = Root.get("schema")) {
    if (const auto *I = S->as_integer()) {
      if (I->get() != ManifestSchema)
        error(S->source(),
              "unsupported schema " + Twine(I->get()) +
                  "; this cudadeps reads schema " + Twine(ManifestSchema));
    } else {
      error(S->source(), "'schema' must be an integer, not " + typeName(*S),
            "write schema = 1");
    }
  } else {
    error(SourceLocation{File, 1, 1}, "missing required key 'schema'",
          "add 'schema = 1' at the top");
  }

  const toml::table *Pkg = getTable(Root, "package", "the manifest");
  const toml::table *Proj = getTable(Root, "project", "the manifest");
  if (!Root.contains("package") && !Root.contains("project")) {
    // A misspelt [pakage] already has its own error with a suggestion.
    const StringRef Tables[] = {"package", "project"};
    bool Misspelt = llvm::any_of(Root, [&](const auto &KV) {
      std::string_view K = KV.first.str();
      return nearestName(StringRef(K.data(), K.size()), Tables).has_value();
    });
    if (!Misspelt)
      error(SourceLocation{File, 1, 1},
            "manifest defines neither [package] nor [project]");
  }

  // Package-only tables need a package; [target] needs a project.
  for (StringRef Key :
       {"requires", "extras", "release", "build", "prebuilt", "fallback"}) {
    if (Root.contains("package"))
      break;
    if (const toml::node *N = Root.get(std::string_view(Key.data(), Key.size())))
      error(N->source(), "'" + Key + "' describes a package, but this manifest "
                         "has no [package]",
            Key == "requires" && Root.contains("project")
                ? "a project lists what it needs in [project] requires"
                : "");
  }
  if (const toml::node *N = Root.get("target"); N && !Root.contains("project"))
    error(N->source(), "[target] needs a [project] in the same manifest");

  if (Pkg) {
    M.Pkg.emplace();
    parsePackage(Root, *Pkg, *M.Pkg);
  }
  if (Proj) {
    M.Proj.emplace();
    parseProject(Root, *Proj, *M.Proj);
  }
}

/// Sorted by position: TOML++ visits keys alphabetically, but the first
/// error a user sees should be the first one in the file.
Error finish(DiagnosticEngine &Diags, Manifest &M) {
  std::vector<Diagnostic> All = Diags.diagnostics();
  std::stable_sort(All.begin(), All.end(),
                   [](const Diagnostic &A, const Diagnostic &B) {
                     return std::tie(A.Loc.Line, A.Loc.Column) <
                            std::tie(B.Loc.Line, B.Loc.Column);
                   });
  if (Diags.hasErrors())
    return make_error<DiagnosticError>(std::move(All));
  M.Warnings = std::move(All);
  return Error::success();
}

} // namespace

Expected<Manifest> parseManifest(StringRef Text, StringRef FileName) {
  DiagnosticEngine Diags(FileName.str(), Text.str());
  Manifest M;
  M.File = FileName.str();
  if (Text.size() > MaxManifestBytes) {
    Diags.error(1, 1, "manifest is too large (" + Twine(Text.size()) +
                          " bytes; the limit is " + Twine(MaxManifestBytes) +
                          ")");
    return Diags.takeError();
  }
  M.Text = SharedBytes(Text.str());
  if (Text.trim().empty()) {
    Diags.error(1, 1, "manifest is empty",
                "a manifest starts with 'schema = 1' and has a [package] or "
                "[project] table");
    return Diags.takeError();
  }
  Expected<toml::table> Parsed = parseToml(Text, FileName);
  if (!Parsed)
    return tomlErrorAsDiagnostic(Parsed.takeError(), Text);
  Loader L(Diags, FileName, M.Text);
  L.run(*Parsed, M);
  if (Error E = finish(Diags, M))
    return E;
  return M;
}

Expected<Manifest> loadManifest(StringRef Path) {
  Expected<std::string> Text = readBoundedFile(Path, MaxManifestBytes, "manifest");
  if (!Text) {
    // Too large is an input error at 1:1; the rest cannot be read at all.
    Error E = handleErrors(Text.takeError(), [&](const BoundedReadError &B) -> Error {
      if (B.kind() == BoundedReadError::Kind::TooLarge ||
          B.kind() == BoundedReadError::Kind::NotRegular)
        return make_error<DiagnosticError>(SourceLocation{Path.str(), 1, 1},
                                           B.message());
      return createStringError(inconvertibleErrorCode(), B.message());
    });
    return E;
  }
  return parseManifest(*Text, Path);
}

namespace {

/// A matrix whose binaries the url template cannot tell apart, an exclude
/// entry naming a value the matrix does not have, a prebuilt tag the url
/// does not use.
template <typename ErrFn>
void lintMatrix(const Located &Url, const Release &R, const PrebuiltMatrix &M,
                ErrFn &&Err) {
  std::vector<std::string> Used = placeholdersIn(Url.Value);
  auto Uses = [&](StringRef Name) { return llvm::is_contained(Used, Name); };
  struct Dim {
    StringRef Key, Placeholder;
    size_t Count;
  };
  const Dim Dims[] = {{"torch", "torch.major_minor", M.Torch.size()},
                      {"cuda", "torch.cuda_major", M.Cuda.size()},
                      {"python", "python.tag", M.Python.size()},
                      {"cxx11_abi", "torch.cxx11_abi_upper", M.Cxx11Abi.size()},
                      {"platform", "platform.tag", M.Platform.size()}};
  for (const Dim &D : Dims)
    if (D.Count > 1 && !Uses(D.Placeholder))
      Err(M.Loc,
          "release " + R.VersionText + ": the prebuilt matrix has " +
              Twine(D.Count) + " values of '" + D.Key +
              "' but the [prebuilt] url has no {" + D.Placeholder +
              "}, so their binaries would share one URL",
          "add {" + D.Placeholder.str() + "} to the url template (at " +
              std::to_string(Url.Loc.Line) + ":" +
              std::to_string(Url.Loc.Column) + ")");
  if (M.Tag && !Uses("release_tag"))
    Err(M.Tag->Loc, "release " + R.VersionText +
                        ": [release.prebuilt] tag is only used through "
                        "{release_tag}, which the [prebuilt] url does not use");
  for (const MatrixExclude &X : M.Exclude) {
    auto Missing = [&](StringRef Key, const std::string &Value) {
      Err(X.Loc, "release " + R.VersionText + ": exclude entry names " + Key +
                     " " + Value + ", which the matrix does not list");
    };
    for (const Version &T : X.Torch)
      if (!llvm::is_contained(M.Torch, T))
        Missing("torch", T.str());
    for (const Version &C : X.Cuda)
      if (llvm::none_of(M.Cuda,
                        [&](const Version &V) { return V.major() == C.major(); }))
        Missing("cuda", C.str());
    for (const std::string &Py : X.Python)
      if (!llvm::is_contained(M.Python, Py))
        Missing("python", Py);
    for (bool A : X.Cxx11Abi)
      if (!llvm::is_contained(M.Cxx11Abi, A))
        Missing("cxx11_abi", A ? "true" : "false");
    for (const std::string &Pl : X.Platform)
      if (!llvm::is_contained(M.Platform, Pl))
        Missing("platform", Pl);
  }
}

} // namespace

Error lintManifest(const Manifest &M) {
  DiagnosticEngine Diags(M.File, M.Text.str());
  auto Err = [&](const SourceLocation &L, const Twine &Msg,
                 StringRef Hint = {}) {
    Diags.error(L.Line ? L.Line : 1, L.Line ? L.Column : 1, Msg, Hint);
  };
  if (M.Pkg) {
    const Package &P = *M.Pkg;
    bool Compiles = P.Kind != BuildKind::Python;
    if (Compiles && !P.Git)
      Err(P.KindLoc, "build = \"" + buildKindName(P.Kind) +
                         "\" needs a 'git' repository in [package]");
    if (P.Kind == BuildKind::Command && P.Build.Command.empty())
      Err(P.KindLoc, "build = \"command\" needs a [build] command");
    if (P.Kind != BuildKind::Command && !P.Build.Command.empty())
      Err(P.Build.Command.front().Loc,
          "[build] command is only used with build = \"command\"",
          "this package has build = \"" + buildKindName(P.Kind).str() + "\"");
    if (P.Kind != BuildKind::CMake && !P.Build.CMakeArgs.empty())
      Err(P.Build.CMakeArgs.front().Loc,
          "[build] cmake_args is only used with build = \"cmake\"");
    auto CheckTag = [&](const Located &Tag) {
      for (const std::string &Name : placeholdersIn(Tag.Value))
        if (Name != "version")
          Err(Tag.Loc, "a tag template can only use {version}, not {" + Name +
                           "}");
    };
    CheckTag(P.Tag);
    if (P.Releases.empty())
      Err(P.Loc, "package '" + P.Name + "' has no [[release]]");
    for (const Release &R : P.Releases) {
      if (R.Tag)
        CheckTag(*R.Tag);
      if (R.Prebuilt && !P.PrebuiltUrl)
        Err(R.Prebuilt->Loc, "[release.prebuilt] needs a [prebuilt] url "
                             "template to name the binaries");
      if (R.Prebuilt && P.PrebuiltUrl)
        lintMatrix(*P.PrebuiltUrl, R, *R.Prebuilt, Err);
    }
  }
  std::vector<Diagnostic> All = Diags.diagnostics();
  if (!Diags.hasErrors())
    return Error::success();
  std::stable_sort(All.begin(), All.end(),
                   [](const Diagnostic &A, const Diagnostic &B) {
                     return std::tie(A.Loc.Line, A.Loc.Column) <
                            std::tie(B.Loc.Line, B.Loc.Column);
                   });
  return make_error<DiagnosticError>(std::move(All));
}

} // namespace cudadeps
