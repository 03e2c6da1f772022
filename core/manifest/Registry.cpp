#include "core/manifest/Registry.h"

#include "core/manifest/ManifestLoader.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <spdlog/spdlog.h>

#include <algorithm>

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

Registry::Registry(std::vector<std::string> Paths) : DirPaths(std::move(Paths)) {
  for (const std::string &P : DirPaths)
    Dirs.push_back({P, false, {}});
}

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
    if (sys::fs::is_directory(P))
      continue;
    Files.push_back(P.str());
  }
  if (EC)
    return createStringError(EC, "cannot list registry '%s': %s",
                             D.Path.c_str(), EC.message().c_str());
  llvm::sort(Files);

  // Parse into a scratch list; publish only when the whole directory is valid.
  std::vector<Manifest> Loaded;
  Error Errors = Error::success();
  for (const std::string &F : Files) {
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
    Loaded.push_back(std::move(*M));
  }
  std::map<std::string, const Manifest *> Seen;
  for (const Manifest &M : Loaded) {
    std::string Name = M.Pkg->canonicalName();
    auto [It, Inserted] = Seen.try_emplace(Name, &M);
    if (Inserted)
      continue;
    const Manifest &First = *It->second;
    const SourceLocation &L = M.Pkg->NameLoc;
    Errors = joinErrors(
        std::move(Errors),
        make_error<DiagnosticError>(
            L,
            "package '" + M.Pkg->Name + "' is defined twice in registry '" +
                D.Path + "': in " + First.File + " and in " + M.File,
            sourceLine(M.Text, L.Line),
            "a registry directory holds one manifest per package"));
  }
  if (Errors)
    return Errors;

  for (Manifest &M : Loaded) {
    Storage.push_back(std::move(M));
    const Manifest &Stored = Storage.back();
    D.ByName.emplace(Stored.Pkg->canonicalName(), &Stored);
  }
  D.Indexed = true;
  spdlog::debug("registry {}: {} package(s)", D.Path, D.ByName.size());
  return Error::success();
}

Expected<const Manifest *> Registry::find(StringRef Name) {
  std::string Canonical = canonicalPackageName(Name);
  for (Dir &D : Dirs) {
    if (Error E = index(D))
      return E;
    auto It = D.ByName.find(Canonical);
    if (It != D.ByName.end())
      return It->second;
  }
  return nullptr;
}

Expected<std::vector<const Manifest *>> Registry::all() {
  std::vector<const Manifest *> Out;
  std::map<std::string, bool> Seen;
  for (Dir &D : Dirs) {
    if (Error E = index(D))
      return E;
    for (const auto &[Name, M] : D.ByName)
      if (Seen.emplace(Name, true).second)
        Out.push_back(M);
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
