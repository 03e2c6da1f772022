//===- LockFile.cpp - cudadeps.lock: a decision and what it rested on ------===//
#include "core/plan/LockFile.h"

#include "core/fetch/SourceFetcher.h"
#include "core/manifest/Manifest.h"
#include "core/support/BoundedFile.h"
#include "core/support/Diagnostic.h"
#include "core/support/Hash.h"
#include "core/support/TomlSupport.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <set>

using namespace llvm;

namespace cudadeps {

//===----------------------------------------------------------------------===//
// Facts and decisions
//===----------------------------------------------------------------------===//

std::vector<LockedFact> lockedFacts(const Facts &F,
                                    ArrayRef<std::string> PackageKeys) {
  std::vector<LockedFact> Out;
  auto Add = [&](std::string Key, std::string Value, const Source &S) {
    Out.push_back({std::move(Key), std::move(Value), S.describe()});
  };
  if (F.Driver) {
    if (F.Driver->KernelVersion)
      Add("driver.version", F.Driver->KernelVersion->str(),
          F.Driver->KernelSource);
    if (F.Driver->Cuda)
      Add("driver.cuda", F.Driver->Cuda->str(), F.Driver->CudaSource);
  }
  for (size_t I = 0; I < F.Gpus.size(); ++I)
    Add("gpu." + std::to_string(I),
        F.Gpus[I].smArch() + " (" + F.Gpus[I].Name + ")", F.Gpus[I].From);
  for (const NvccFacts &N : F.Nvccs)
    Add("nvcc " + N.Path, N.Ver.str(), N.From);
  for (const CompilerFacts &C : F.Compilers)
    Add("compiler " + C.Path, C.Family + " " + C.Ver.str(), C.From);
  if (F.Python) {
    Add("python", F.Python->Ver.str(), F.Python->From);
    Add("python.path", F.Python->Path, F.Python->From);
  }
  if (F.Torch) {
    Add("torch", F.Torch->Ver.str(), F.Torch->From);
    if (F.Torch->Cuda)
      Add("torch.cuda", F.Torch->Cuda->str(), F.Torch->From);
    if (F.Torch->Cxx11Abi)
      Add("torch.cxx11_abi", *F.Torch->Cxx11Abi ? "true" : "false",
          F.Torch->From);
  }
  for (const std::string &K : PackageKeys)
    if (auto It = F.Packages.find(K); It != F.Packages.end())
      Add("packages." + K, It->second.Ver.str(), It->second.From);
  if (F.Platform) {
    Add("platform", F.Platform->tag(), F.Platform->From);
    if (F.Platform->Glibc)
      Add("platform.glibc", F.Platform->Glibc->str(), F.Platform->From);
  }
  return Out;
}

/// \p Path without the \p Dir prefix, or std::nullopt when it is not under
/// \p Dir.
static std::optional<std::string> under(StringRef Path, StringRef Dir) {
  SmallString<256> Base(Dir);
  sys::path::remove_dots(Base, /*remove_dot_dot=*/true);
  StringRef P(Path);
  if (!Base.empty() && P.startswith(Base) && P.size() > Base.size() &&
      sys::path::is_separator(P[Base.size()]))
    return P.drop_front(Base.size() + 1).str();
  return std::nullopt;
}

static std::string hashOrMissing(StringRef Path) {
  // The files hashed are inputs that were read already; a FIFO or a device
  // in their place now is not waited for.
  Expected<std::string> Text = readBoundedFile(Path, MaxLockBytes, "input");
  if (!Text) {
    consumeError(Text.takeError());
    return "missing";
  }
  return sha256Hex(*Text);
}

Expected<Lock> makeLock(const Resolution &R, const Facts &F,
                        const PackageLookup &Lookup, ArrayRef<std::string> Files,
                        StringRef LockDir, StringRef DataDir) {
  Lock L;
  L.Cudadeps = CUDADEPS_VERSION;
  L.Status = statusName(R.Status).str();
  L.TargetArchs = R.TargetArchs;
  L.TargetOrigin = R.TargetOrigin;
  for (const std::string &Path : Files) {
    std::string Shown = Path;
    if (std::optional<std::string> D = under(Path, DataDir))
      Shown = "{data}/" + *D;
    else if (std::optional<std::string> L = under(Path, LockDir))
      Shown = *L;
    L.Files.push_back({Shown, hashOrMissing(Path)});
  }
  std::set<std::string> Keys;
  for (const PackageResolution &P : R.Packages) {
    LockedPackage LP;
    LP.Name = P.Name;
    LP.Version = P.Ver ? P.Ver->str() : "";
    LP.Strategy = strategyName(P.How).str();
    if (P.Nvcc) {
      LP.Nvcc = P.Nvcc->Path;
      LP.NvccVersion = P.Nvcc->Ver.str();
    }
    if (P.Compiler) {
      LP.Compiler = P.Compiler->Path;
      LP.CompilerVersion = P.Compiler->Family + " " + P.Compiler->Ver.str();
    }
    LP.Archs = P.Archs;
    LP.PrebuiltUrl = P.PrebuiltUrl.value_or("");
    LP.Fallback = P.Fallback ? P.Fallback->Name : "";
    if (const Package *Pkg = Lookup(P.Name)) {
      Expected<FetchRequest> FR = fetchRequestFor(*Pkg, P.Ver);
      if (FR) {
        LP.Git = FR->Url.Value;
        LP.Tag = FR->Tag.Value;
        if (FR->Commit)
          LP.Commit = FR->Commit->Value;
      } else {
        consumeError(FR.takeError()); // no git URL: nothing to fetch
      }
      if (const Release *Rel = P.Ver ? Pkg->findRelease(*P.Ver) : nullptr)
        for (const auto &[K, Req] : Pkg->requirementsFor(*Rel))
          Keys.insert(K);
    }
    L.Packages.push_back(std::move(LP));
  }
  L.Facts = lockedFacts(F, std::vector<std::string>(Keys.begin(), Keys.end()));
  return L;
}

//===----------------------------------------------------------------------===//
// Writing
//===----------------------------------------------------------------------===//

static std::string tomlList(ArrayRef<std::string> Items) {
  std::string Out = "[";
  for (size_t I = 0; I < Items.size(); ++I)
    Out += (I ? ", " : "") + tomlString(Items[I]);
  return Out + "]";
}

std::string writeLock(const Lock &L) {
  std::string Out;
  raw_string_ostream OS(Out);
  OS << "# cudadeps.lock: what `cudadeps resolve --lock` decided on this "
        "machine and what it\n# rested on; `cudadeps resolve --locked` "
        "checks that it still holds. Generated.\n";
  OS << "lock_version = " << L.Version << '\n';
  OS << "cudadeps = " << tomlString(L.Cudadeps) << '\n';
  OS << "status = " << tomlString(L.Status) << '\n';
  OS << "target_archs = " << tomlList(L.TargetArchs) << '\n';
  OS << "target_origin = " << tomlString(L.TargetOrigin) << '\n';
  for (const LockedPackage &P : L.Packages) {
    OS << "\n[[package]]\n";
    auto Field = [&](StringRef Key, StringRef Value) {
      if (!Value.empty())
        OS << Key << " = " << tomlString(Value) << '\n';
    };
    Field("name", P.Name);
    Field("version", P.Version);
    Field("strategy", P.Strategy);
    Field("nvcc", P.Nvcc);
    Field("nvcc_version", P.NvccVersion);
    Field("compiler", P.Compiler);
    Field("compiler_version", P.CompilerVersion);
    if (!P.Archs.empty())
      OS << "archs = " << tomlList(P.Archs) << '\n';
    Field("prebuilt_url", P.PrebuiltUrl);
    Field("fallback", P.Fallback);
    Field("git", P.Git);
    Field("tag", P.Tag);
    Field("commit", P.Commit);
  }
  for (const LockedFact &F : L.Facts)
    OS << "\n[[fact]]\nkey = " << tomlString(F.Key)
       << "\nvalue = " << tomlString(F.Value)
       << "\nsource = " << tomlString(F.Source) << '\n';
  for (const LockedFile &F : L.Files)
    OS << "\n[[file]]\npath = " << tomlString(F.Path)
       << "\nsha256 = " << tomlString(F.Sha256) << '\n';
  return Out;
}

//===----------------------------------------------------------------------===//
// Reading
//===----------------------------------------------------------------------===//

namespace {

/// Reads the tables of a lock, reporting each problem at its place.
class LockReader {
public:
  LockReader(DiagnosticEngine &Diags, StringRef File)
      : Diags(Diags), File(File) {}

  void error(const toml::node &N, const Twine &Message) {
    SourceLocation L = locationOf(File, N.source());
    Diags.error(L.Line, L.Column, Message);
  }

  /// A string member (absent = empty); \p Required reports its absence.
  std::string string(const toml::table &T, StringRef Key,
                     bool Required = false) {
    const toml::node *N = T.get(std::string_view(Key.data(), Key.size()));
    if (!N) {
      if (Required)
        error(T, "missing key '" + Key + "'");
      return {};
    }
    if (const toml::value<std::string> *S = N->as_string())
      return S->get();
    error(*N, "'" + Key + "' must be a string, not " + typeName(*N));
    return {};
  }

  std::vector<std::string> strings(const toml::table &T, StringRef Key) {
    std::vector<std::string> Out;
    const toml::node *N = T.get(std::string_view(Key.data(), Key.size()));
    if (!N)
      return Out;
    const toml::array *A = N->as_array();
    if (!A) {
      error(*N, "'" + Key + "' must be an array of strings, not " +
                    typeName(*N));
      return Out;
    }
    for (const toml::node &E : *A) {
      if (const toml::value<std::string> *S = E.as_string())
        Out.push_back(S->get());
      else
        error(E, "'" + Key + "' must hold strings, not " + typeName(E));
    }
    return Out;
  }

  /// The tables of an array of tables (absent = none).
  std::vector<const toml::table *> tables(const toml::table &T,
                                          StringRef Key) {
    std::vector<const toml::table *> Out;
    const toml::node *N = T.get(std::string_view(Key.data(), Key.size()));
    if (!N)
      return Out;
    const toml::array *A = N->as_array();
    if (!A) {
      error(*N, "'" + Key + "' must be an array of tables ([[" + Key +
                    "]]), not " + typeName(*N));
      return Out;
    }
    for (const toml::node &E : *A) {
      if (const toml::table *Sub = E.as_table())
        Out.push_back(Sub);
      else
        error(E, "[[" + Key + "]] must hold tables, not " + typeName(E));
    }
    return Out;
  }

  void unknownKeys(const toml::table &T, ArrayRef<StringRef> Known) {
    for (const auto &[K, V] : T) {
      StringRef Name(K.str().data(), K.str().size());
      if (is_contained(Known, Name))
        continue;
      std::vector<StringRef> Names(Known.begin(), Known.end());
      SourceLocation L = locationOf(File, K.source());
      Diags.error(L.Line, L.Column,
                  "unknown key " + quoteForMessage(Name, 60) + " in the lock",
                  didYouMean(Name, Names));
    }
  }

private:
  DiagnosticEngine &Diags;
  std::string File;
};

} // namespace

Expected<Lock> parseLock(StringRef Text, StringRef File) {
  DiagnosticEngine Diags(File.str(), Text.str());
  if (Text.size() > MaxLockBytes) {
    Diags.error(1, 1, "lock file is too large (" + Twine(Text.size()) +
                          " bytes; the limit is " + Twine(MaxLockBytes) + ")");
    return Diags.takeError();
  }
  Expected<toml::table> Parsed = parseToml(Text, File);
  if (!Parsed)
    return tomlErrorAsDiagnostic(Parsed.takeError(), Text);
  const toml::table &T = *Parsed;
  LockReader R(Diags, File);
  Lock L;
  R.unknownKeys(T, {"lock_version", "cudadeps", "status", "target_archs",
                    "target_origin", "package", "fact", "file"});
  const toml::node *V = T.get("lock_version");
  if (!V || !V->as_integer()) {
    Diags.error(1, 1, "missing lock_version = " + Twine(LockVersion),
                "write the lock again with `cudadeps resolve --lock`");
    return Diags.takeError();
  }
  L.Version = V->as_integer()->get();
  if (L.Version != LockVersion) {
    R.error(*V, "lock_version " + Twine(L.Version) +
                    " is not the version this cudadeps reads (" +
                    Twine(LockVersion) + ")");
    return Diags.takeError();
  }
  L.Cudadeps = R.string(T, "cudadeps");
  L.Status = R.string(T, "status", /*Required=*/true);
  L.TargetArchs = R.strings(T, "target_archs");
  L.TargetOrigin = R.string(T, "target_origin");
  for (const toml::table *P : R.tables(T, "package")) {
    R.unknownKeys(*P, {"name", "version", "strategy", "nvcc", "nvcc_version",
                       "compiler", "compiler_version", "archs", "prebuilt_url",
                       "fallback", "git", "tag", "commit"});
    LockedPackage LP;
    LP.Name = R.string(*P, "name", /*Required=*/true);
    LP.Version = R.string(*P, "version");
    LP.Strategy = R.string(*P, "strategy", /*Required=*/true);
    LP.Nvcc = R.string(*P, "nvcc");
    LP.NvccVersion = R.string(*P, "nvcc_version");
    LP.Compiler = R.string(*P, "compiler");
    LP.CompilerVersion = R.string(*P, "compiler_version");
    LP.Archs = R.strings(*P, "archs");
    LP.PrebuiltUrl = R.string(*P, "prebuilt_url");
    LP.Fallback = R.string(*P, "fallback");
    LP.Git = R.string(*P, "git");
    LP.Tag = R.string(*P, "tag");
    LP.Commit = R.string(*P, "commit");
    L.Packages.push_back(std::move(LP));
  }
  for (const toml::table *F : R.tables(T, "fact")) {
    R.unknownKeys(*F, {"key", "value", "source"});
    L.Facts.push_back({R.string(*F, "key", true), R.string(*F, "value", true),
                       R.string(*F, "source")});
  }
  for (const toml::table *F : R.tables(T, "file")) {
    R.unknownKeys(*F, {"path", "sha256"});
    L.Files.push_back({R.string(*F, "path", true), R.string(*F, "sha256", true)});
  }
  if (Error E = Diags.takeError())
    return E;
  return L;
}

//===----------------------------------------------------------------------===//
// Drift
//===----------------------------------------------------------------------===//

static std::string shortHash(StringRef H) {
  return H == "missing" ? "missing" : H.take_front(12).str();
}

/// "1.6.1 source with nvcc 13.0.88 (/usr/local/cuda/bin/nvcc), gcc 12.2.0
/// (/usr/bin/g++), archs sm_90".
static std::string describe(const LockedPackage &P) {
  std::string S = P.Version.empty() ? P.Strategy : P.Version + " " + P.Strategy;
  if (!P.Fallback.empty())
    S += " '" + P.Fallback + "'";
  return S;
}

std::vector<std::string> lockDrift(const Lock &Locked, const Lock &Now) {
  std::vector<std::string> Out;
  // Files: by path.
  for (const LockedFile &F : Locked.Files) {
    auto It = find_if(Now.Files,
                      [&](const LockedFile &N) { return N.Path == F.Path; });
    if (It == Now.Files.end())
      Out.push_back("file " + F.Path + " is no longer read");
    else if (It->Sha256 != F.Sha256)
      Out.push_back("file " + F.Path + " changed (sha256 " +
                    shortHash(F.Sha256) + " → " + shortHash(It->Sha256) + ")");
  }
  for (const LockedFile &N : Now.Files)
    if (none_of(Locked.Files,
                [&](const LockedFile &F) { return F.Path == N.Path; }))
      Out.push_back("file " + N.Path + " is read now but not locked");

  // Facts: by key.
  std::map<std::string, const LockedFact *> Was, Is;
  for (const LockedFact &F : Locked.Facts)
    Was[F.Key] = &F;
  for (const LockedFact &F : Now.Facts)
    Is[F.Key] = &F;
  for (const LockedFact &F : Locked.Facts) {
    auto It = Is.find(F.Key);
    if (It == Is.end())
      Out.push_back(F.Key + ": " + F.Value + " → absent (locked: " +
                    F.Source + ")");
    else if (It->second->Value != F.Value)
      Out.push_back(F.Key + ": " + F.Value + " → " + It->second->Value +
                    " (now " + It->second->Source + "; locked: " + F.Source +
                    ")");
  }
  for (const LockedFact &F : Now.Facts)
    if (!Was.count(F.Key))
      Out.push_back(F.Key + ": absent → " + F.Value + " (now " + F.Source +
                    ")");

  // Decisions: by package, field by field.
  if (Locked.TargetArchs != Now.TargetArchs)
    Out.push_back("target archs: " +
                  (Locked.TargetArchs.empty() ? std::string("none")
                                              : join(Locked.TargetArchs, " ")) +
                  " → " +
                  (Now.TargetArchs.empty() ? std::string("none")
                                           : join(Now.TargetArchs, " ")));
  for (const LockedPackage &P : Locked.Packages) {
    auto It = find_if(Now.Packages, [&](const LockedPackage &N) {
      return N.Name == P.Name;
    });
    if (It == Now.Packages.end()) {
      Out.push_back(P.Name + ": locked (" + describe(P) +
                    ") but no longer part of the resolution");
      continue;
    }
    const LockedPackage &N = *It;
    auto Field = [&](StringRef What, StringRef Old, StringRef New) {
      if (Old != New)
        Out.push_back((P.Name + " " + What + ": " +
                       (Old.empty() ? StringRef("none") : Old) + " → " +
                       (New.empty() ? StringRef("none") : New))
                          .str());
    };
    Field("decision", describe(P), describe(N));
    Field("nvcc", P.Nvcc.empty() ? "" : P.NvccVersion + " (" + P.Nvcc + ")",
          N.Nvcc.empty() ? "" : N.NvccVersion + " (" + N.Nvcc + ")");
    Field("host compiler",
          P.Compiler.empty() ? "" : P.CompilerVersion + " (" + P.Compiler + ")",
          N.Compiler.empty() ? "" : N.CompilerVersion + " (" + N.Compiler + ")");
    Field("archs", join(P.Archs, " "), join(N.Archs, " "));
    Field("prebuilt URL", P.PrebuiltUrl, N.PrebuiltUrl);
    Field("source", P.Git + (P.Tag.empty() ? "" : " " + P.Tag),
          N.Git + (N.Tag.empty() ? "" : " " + N.Tag));
    // A commit not known here (the source is not fetched yet) is checked
    // when it is fetched (build --locked), not reported as drift; a lock
    // written before the source was fetched records none and pins none.
    if (!N.Commit.empty() && !P.Commit.empty())
      Field("commit", P.Commit, N.Commit);
  }
  for (const LockedPackage &N : Now.Packages)
    if (none_of(Locked.Packages,
                [&](const LockedPackage &P) { return P.Name == N.Name; }))
      Out.push_back(N.Name + ": part of the resolution now (" + describe(N) +
                    ") but not locked");
  return Out;
}

} // namespace cudadeps
