#include "core/manifest/Registry.h"

#include "core/manifest/ManifestCodec.h"
#include "core/manifest/ManifestLoader.h"
#include "core/manifest/RequirementIds.h"
#include "core/support/LoadCache.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cassert>

#include <fcntl.h>
#include <unistd.h>

using namespace llvm;

namespace cudadeps {

std::vector<std::string> registrySearchPath(ArrayRef<std::string> CommandLine,
                                            ArrayRef<std::string> ProjectDirs,
                                            StringRef EnvValue,
                                            StringRef InstalledDir) {
  std::vector<std::string> Out;
  auto Add = [&](StringRef D) {
    if (!D.empty() && !llvm::is_contained(Out, D))
      Out.push_back(D.str());
  };
  for (const std::string &D : CommandLine)
    Add(D);
  for (const std::string &D : ProjectDirs)
    Add(D);
  SmallVector<StringRef, 4> EnvDirs;
  EnvValue.split(EnvDirs, ':', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef D : EnvDirs)
    Add(D);
  Add(InstalledDir);
  return Out;
}

Registry::Registry(std::vector<std::string> Paths, std::string CacheDir)
    : DirPaths(std::move(Paths)), CacheDir(std::move(CacheDir)) {
  for (const std::string &P : DirPaths)
    Dirs.push_back({P, false, {}, {}, {}});
}

namespace {

/// A valid manifest of a directory being indexed: parsed now, or the index
/// of its entry in the load cache.
struct Indexed {
  std::string File;
  std::string Key; // canonical package name
  std::optional<Manifest> Parsed;
  size_t Entry = ~size_t(0);
};

/// \p I parsed now, or decoded from \p Blob (its releases' requirements
/// when first read); parsed again from its file if the blob does not decode
/// (counted in \p Parsed).
Expected<Manifest> materialize(Indexed &I, SharedBytes Blob,
                               const SourcePath &CacheFile, size_t &Parsed) {
  if (I.Parsed)
    return std::move(*I.Parsed);
  if (std::optional<Manifest> M = decodeManifestDeferred(
          std::move(Blob.Owner), Blob.Bytes, I.File, CacheFile))
    return std::move(*M);
  spdlog::debug("registry {}: cached form does not decode; parsed again",
                I.File);
  ++Parsed;
  Expected<Manifest> M = loadManifest(I.File);
  if (M && (!M->Pkg || M->Pkg->canonicalName() != I.Key))
    return createStringError(inconvertibleErrorCode(),
                             "registry manifest '%s' changed while it was "
                             "read; run the command again",
                             I.File.c_str());
  return M;
}

/// The requirement table (RequirementIds.h) of the cache file \p New,
/// \p Valid its files: a parsed manifest's numbers made from it, a reused
/// entry's (\p OldOf: its entry in the file read) renumbered from \p Old,
/// or made from its blob where those do not read.
std::string requirementTable(const std::vector<Indexed> &Valid,
                             const LoadCacheContents &New,
                             const std::shared_ptr<const RequirementTable> &Old,
                             const std::vector<size_t> &OldOf) {
  RequirementTableBuilder B;
  std::vector<std::string> PerFile(New.Files.size());
  for (const Indexed &I : Valid) {
    if (I.Entry >= New.Files.size())
      continue;
    if (I.Parsed) {
      PerFile[I.Entry] = B.add(*I.Parsed->Pkg);
      continue;
    }
    std::optional<std::string> Ids;
    if (size_t O = OldOf[I.Entry]; Old && O < Old->PerFile.size())
      Ids = B.renumber(*Old, Old->PerFile[O]);
    if (!Ids)
      if (std::optional<Manifest> M =
              decodeManifest(New.Files[I.Entry].Blob, I.File);
          M && M->Pkg)
        Ids = B.add(*M->Pkg);
    if (Ids)
      PerFile[I.Entry] = std::move(*Ids);
  }
  return B.encode(PerFile);
}

} // namespace

Error Registry::index(Dir &D) {
  if (D.Indexed)
    return Error::success();
  sys::fs::file_status Status;
  if (std::error_code EC = sys::fs::status(D.Path, Status)) {
    spdlog::debug("registry {}: skipped ({})", D.Path, EC.message());
    D.Indexed = true;
    return Error::success();
  }
  if (!sys::fs::is_directory(Status))
    return createStringError(inconvertibleErrorCode(),
                             "registry '%s' is not a directory",
                             D.Path.c_str());

  std::vector<std::string> Files;
  std::error_code EC;
  for (sys::fs::directory_iterator It(D.Path, EC), End; It != End && !EC;
       It.increment(EC)) {
    StringRef P = It->path();
    if (sys::path::extension(P) != ".toml")
      continue;
    // The entry's type as listed (no stat per file: a large registry has
    // thousands); a symlink or an unknown type is looked up.
    sys::fs::file_type T = It->type();
    if (T == sys::fs::file_type::directory_file)
      continue;
    if ((T == sys::fs::file_type::symlink_file ||
         T == sys::fs::file_type::type_unknown) &&
        sys::fs::is_directory(P))
      continue;
    Files.push_back(P.str());
  }
  if (EC)
    return createStringError(EC, "cannot list registry '%s': %s",
                             D.Path.c_str(), EC.message().c_str());
  llvm::sort(Files);

  // Unchanged files come from the cache; the others are parsed. Results go
  // to a scratch list, published only when the whole directory is valid.
  LoadCache Cache(CacheDir, "registry", D.Path);
  LoadCacheContents Old = Cache.read(), New;
  // The old file's requirement numbers (RequirementIds.h), and per entry of
  // the new one, its entry in the old (NoEntry: parsed now).
  std::shared_ptr<const RequirementTable> OldTable = RequirementTable::read(
      std::make_shared<const std::string>(std::move(Old.Combined)));
  constexpr size_t NoEntry = ~size_t(0);
  std::vector<size_t> OldOf;
  OldOf.reserve(Files.size());
  // The maps of the files, sized for them at once (a large registry's
  // thousands of names are not rehashed as they go in).
  StringMap<size_t> OldByName(unsigned(Old.Files.size()));
  for (size_t I = 0; I < Old.Files.size(); ++I)
    OldByName[Old.Files[I].Name] = I;
  // Files are identified relative to the directory, opened once.
  int DirFd = Cache.enabled()
                  ? ::open(D.Path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                  : -1;
  auto CloseDir = make_scope_exit([&] {
    if (DirFd >= 0)
      ::close(DirFd);
  });
  size_t ParsedHere = 0;
  std::vector<Indexed> Valid;
  Valid.reserve(Files.size());
  New.Files.reserve(Files.size());
  Error Errors = Error::success();
  for (const std::string &F : Files) {
    StringRef Name = sys::path::filename(F);
    std::optional<FileIdentity> Id;
    if (Cache.enabled())
      // Before reading: a later change shows.
      Id = DirFd >= 0 ? identifyFileAt(DirFd, Name) : identifyFile(F);
    if (auto It = OldByName.find(Name); Id && It != OldByName.end() &&
                                         Old.Files[It->second].Id == *Id) {
      Valid.push_back({F, Old.Files[It->second].Key, {}, New.Files.size()});
      New.Files.push_back(std::move(Old.Files[It->second]));
      OldOf.push_back(It->second);
      continue;
    }
    ++ParsedHere;
    Expected<Manifest> M = loadManifest(F);
    if (!M) {
      Errors = joinErrors(std::move(Errors), M.takeError());
      continue;
    }
    if (!M->Pkg) {
      Errors = joinErrors(
          std::move(Errors),
          make_error<DiagnosticError>(
              SourceLocation{F, 1, 1},
              "registry manifest defines no [package]",
              sourceLine(M->Text, 1),
              "a registry holds package manifests, one package per file"));
      continue;
    }
    Indexed I{F, M->Pkg->canonicalName(), std::nullopt, ~size_t(0)};
    if (Id) {
      I.Entry = New.Files.size();
      New.Files.push_back(
          {Name.str(), *Id, I.Key, SharedBytes(encodeManifest(*M))});
      OldOf.push_back(NoEntry);
    }
    I.Parsed = std::move(*M);
    Valid.push_back(std::move(I));
  }
  Parsed += ParsedHere;
  // Per entry of New: its requirement numbers in Table.
  std::shared_ptr<const RequirementTable> Table = OldTable;
  std::vector<size_t> IdsAt = OldOf;
  if (ParsedHere || New.Files.size() != Old.Files.size()) {
    New.Combined = requirementTable(Valid, New, OldTable, OldOf);
    Cache.write(New);
    Table = RequirementTable::read(
        std::make_shared<const std::string>(New.Combined));
    for (size_t E = 0; E < IdsAt.size(); ++E)
      IdsAt[E] = E;
  }
  auto IdsOf = [&](const Indexed &I) -> StringRef {
    if (!Table || I.Entry >= IdsAt.size() ||
        IdsAt[I.Entry] >= Table->PerFile.size())
      return {};
    return Table->PerFile[IdsAt[I.Entry]];
  };
  auto BlobOf = [&](const Indexed &I) -> SharedBytes & {
    static SharedBytes None;
    return I.Entry < New.Files.size() ? New.Files[I.Entry].Blob : None;
  };

  StringMap<size_t> Seen(unsigned(Valid.size())); // each package's first
  for (size_t J = 0; J < Valid.size(); ++J) {
    auto [It, Inserted] = Seen.try_emplace(Valid[J].Key, J);
    if (Inserted)
      continue;
    Expected<Manifest> M =
        materialize(Valid[J], BlobOf(Valid[J]), Cache.path(), Parsed);
    if (!M) {
      Errors = joinErrors(std::move(Errors), M.takeError());
      continue;
    }
    const SourceLocation &L = M->Pkg->NameLoc;
    Errors = joinErrors(
        std::move(Errors),
        make_error<DiagnosticError>(
            L,
            "package '" + M->Pkg->Name + "' is defined twice in registry '" +
                D.Path + "': in " + Valid[It->second].File + " and in " +
                M->File,
            sourceLine(M->Text, L.Line),
            "a registry directory holds one manifest per package"));
  }
  if (Errors)
    return Errors;

  // Filled here alone, once per directory (Indexed).
  assert(D.ByName.empty() && "a registry directory is indexed once");
  D.ByName = StringMap<Slot>(unsigned(Valid.size()));
  for (Indexed &I : Valid) {
    Slot &S = D.ByName[I.Key];
    S.File = I.File;
    if (I.Parsed) {
      Storage.push_back(std::move(*I.Parsed));
      S.Loaded = &Storage.back();
    } else {
      S.Blob = std::move(BlobOf(I));
      S.Ids = IdsOf(I);
    }
  }
  D.CacheFile = Cache.path();
  D.Table = std::move(Table);
  D.Indexed = true;
  spdlog::debug("registry {}: {} package(s), {} parsed", D.Path,
                D.ByName.size(), ParsedHere);
  return Error::success();
}

Expected<const Manifest *> Registry::load(const Dir &D, StringRef Key,
                                          Slot &S) {
  if (S.Loaded)
    return S.Loaded;
  Indexed I{S.File, Key.str(), std::nullopt, 0};
  Expected<Manifest> M =
      materialize(I, std::move(S.Blob), D.CacheFile, Parsed);
  S.Blob = SharedBytes();
  if (!M)
    return M.takeError();
  if (M->Pkg && D.Table && releaseNumbersFit(S.Ids, M->Pkg->Releases.size()))
    M->Pkg->Releases.keepRequirementIds(D.Table, S.Ids);
  Storage.push_back(std::move(*M));
  S.Loaded = &Storage.back();
  return S.Loaded;
}

Expected<const Manifest *> Registry::find(StringRef Name) {
  std::string Canonical = canonicalPackageName(Name);
  for (Dir &D : Dirs) {
    if (Error E = index(D))
      return E;
    auto It = D.ByName.find(Canonical);
    if (It != D.ByName.end())
      return load(D, It->first(), It->second);
  }
  return nullptr;
}

Expected<bool> Registry::has(StringRef Name) {
  std::string Canonical = canonicalPackageName(Name);
  for (Dir &D : Dirs) {
    if (Error E = index(D))
      return E;
    if (D.ByName.count(Canonical))
      return true;
  }
  return false;
}

Expected<std::vector<const Manifest *>> Registry::all() {
  std::vector<const Manifest *> Out;
  std::map<std::string, bool> Seen;
  for (Dir &D : Dirs) {
    if (Error E = index(D))
      return E;
    // By name (a hash map lists them in no order).
    std::vector<StringMapEntry<Slot> *> Sorted;
    Sorted.reserve(D.ByName.size());
    for (StringMapEntry<Slot> &E : D.ByName)
      Sorted.push_back(&E);
    llvm::sort(Sorted, [](const StringMapEntry<Slot> *A,
                          const StringMapEntry<Slot> *B) {
      return A->first() < B->first();
    });
    for (StringMapEntry<Slot> *E : Sorted) {
      StringRef Name = E->first();
      if (!Seen.emplace(Name.str(), true).second)
        continue;
      Expected<const Manifest *> M = load(D, Name, E->second);
      if (!M)
        return M.takeError();
      Out.push_back(*M);
    }
  }
  return Out;
}

Expected<std::vector<Manifest>> loadRegistry(ArrayRef<std::string> Dirs) {
  Registry R(std::vector<std::string>(Dirs.begin(), Dirs.end()));
  Expected<std::vector<const Manifest *>> All = R.all();
  if (!All)
    return All.takeError();
  std::vector<Manifest> Out;
  for (const Manifest *M : *All)
    Out.push_back(*M);
  return Out;
}

} // namespace cudadeps
