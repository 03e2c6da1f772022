//===- ResolveLock.cpp - resolve --lock FILE and --locked ------------------===//
#include "cli/ResolveLock.h"
#include "cli/OutputFile.h"
#include "core/fetch/SourceFetcher.h"
#include "core/plugin/ProbeCache.h"
#include "core/support/BoundedFile.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace cudadeps::cli {

void addAbsolutePath(std::vector<std::string> &Out, StringRef Path) {
  if (Path.empty())
    return;
  SmallString<256> Abs(Path);
  sys::fs::make_absolute(Abs);
  sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  if (!is_contained(Out, Abs.str()))
    Out.push_back(std::string(Abs.str()));
}

std::vector<std::string> filesRead(Context &Ctx, Workspace &W,
                                   const Resolution &R) {
  std::vector<std::string> Out;
  addAbsolutePath(Out, W.Main.File);
  for (const PackageResolution &PR : R.Packages)
    if (const Package *Pkg = W.find(PR.Name))
      addAbsolutePath(Out, Pkg->Loc.File);
  SmallString<256> KBDir(Ctx.installedRegistry());
  sys::path::append(KBDir, "cuda");
  std::error_code EC;
  std::vector<std::string> KBFiles;
  for (sys::fs::directory_iterator I(KBDir, EC), E; I != E && !EC;
       I.increment(EC))
    if (StringRef(I->path()).endswith(".toml"))
      KBFiles.push_back(I->path());
  llvm::sort(KBFiles);
  for (const std::string &F : KBFiles)
    addAbsolutePath(Out, F);
  return Out;
}

/// The commit each source build's tag is at in the source cache, when
/// cudadeps has fetched it (nothing is fetched here: offline, and only
/// for sources already cached); a package with none keeps the commit its
/// manifest pins.
static void addCachedCommits(Lock &L, Workspace &W) {
  static RealEnvironment Env;
  std::string CacheDir = ProbeCache::defaultDir(Env);
  if (CacheDir.empty())
    return;
  for (LockedPackage &LP : L.Packages) {
    const Package *Pkg = W.find(LP.Name);
    if (LP.Strategy != "source" || !Pkg)
      continue;
    Expected<Version> V = Version::parse(LP.Version);
    if (!V) {
      consumeError(V.takeError());
      continue;
    }
    Expected<FetchRequest> FR = fetchRequestFor(*Pkg, *V);
    if (!FR) {
      consumeError(FR.takeError());
      continue;
    }
    const FetchRequest &Req = *FR;
    if (!sys::fs::is_directory(sourceDirFor(Req, CacheDir)))
      continue;
    FetchOptions Opts;
    Opts.CacheDir = CacheDir;
    Opts.Offline = true;
    Expected<FetchedSource> S = fetchSource(Req, Opts);
    if (S)
      LP.Commit = S->Commit;
    else
      consumeError(S.takeError());
  }
}

Expected<std::optional<LockOutcome>>
applyLockOptions(Context &Ctx, const ParsedOptions &Opts, Workspace &W,
                 const Resolution &R, const Facts &F, StringRef ManifestPath) {
  if (!Opts.has("--lock") && !Opts.has("--locked"))
    return std::nullopt;
  LockOutcome Out;
  Out.Checked = Opts.has("--locked");
  if (Opts.has("--lock")) {
    Out.File = Opts.get("--lock");
  } else {
    SmallString<256> Beside(sys::path::parent_path(ManifestPath));
    sys::path::append(Beside, "cudadeps.lock");
    Out.File = std::string(Beside.str());
  }
  SmallString<256> LockDir(sys::path::parent_path(Out.File));
  sys::fs::make_absolute(LockDir);
  sys::path::remove_dots(LockDir, /*remove_dot_dot=*/true);
  const PackageLookup Lookup = [&W](StringRef N) { return W.find(N); };
  SmallString<256> DataDir(Ctx.installedRegistry());
  sys::fs::make_absolute(DataDir);
  Expected<Lock> Now =
      makeLock(R, F, Lookup, filesRead(Ctx, W, R), LockDir, DataDir);
  if (!Now)
    return Now.takeError();
  addCachedCommits(*Now, W);
  Out.Packages = Now->Packages.size();
  Out.Facts = Now->Facts.size();
  Out.Files = Now->Files.size();

  if (!Out.Checked) {
    if (R.Status == ResolveStatus::Unsatisfiable)
      return Out; // nothing to lock: Written stays unset
    Expected<bool> Written = writeFileIfChanged(Out.File, writeLock(*Now));
    if (!Written)
      return Written.takeError();
    Out.Written = *Written;
    return Out;
  }

  sys::fs::file_status St;
  if (sys::fs::status(Out.File, St) || !sys::fs::is_regular_file(St))
    return createStringError(inconvertibleErrorCode(),
                             "no lock file " + Out.File +
                                 " (write one with --lock " + Out.File + ")");
  if (St.getSize() > MaxLockBytes)
    return createStringError(inconvertibleErrorCode(),
                             "lock file " + Out.File + " is too large");
  Expected<std::string> B = readBoundedFile(Out.File, MaxLockBytes, "lock file");
  if (!B)
    return B.takeError();
  Expected<Lock> Locked = parseLock(*B, Out.File);
  if (!Locked)
    return Locked.takeError();
  Out.Drift = lockDrift(*Locked, *Now);
  for (const LockedPackage &LP : Locked->Packages)
    if (!LP.Commit.empty())
      Out.LockedCommits[LP.Name] = LP.Commit;
  return Out;
}

void renderLockText(const LockOutcome &L, raw_ostream &OS) {
  if (L.Checked) {
    if (L.Drift.empty()) {
      OS << "locked: " << L.File << " holds on this machine (" << L.Packages
         << " package" << (L.Packages == 1 ? "" : "s") << ", " << L.Facts
         << " fact" << (L.Facts == 1 ? "" : "s") << ", " << L.Files << " file"
         << (L.Files == 1 ? "" : "s") << ")\n";
      return;
    }
    OS << "locked: " << L.File << " does not hold on this machine ("
       << L.Drift.size() << " difference" << (L.Drift.size() == 1 ? "" : "s")
       << "):\n";
    for (const std::string &D : L.Drift)
      OS << "  drift: " << D << '\n';
    return;
  }
  if (!L.Written)
    OS << "lock: nothing written to " << L.File
       << " (no buildable configuration)\n";
  else if (*L.Written)
    OS << "lock: wrote " << L.File << '\n';
  else
    OS << "lock: " << L.File << " is up to date\n";
}

json::Value renderLockJson(const LockOutcome &L) {
  json::Object O{{"file", L.File}, {"checked", L.Checked}};
  if (L.Checked) {
    O["holds"] = L.Drift.empty();
    O["drift"] = json::Array(L.Drift);
  } else {
    O["written"] = L.Written ? json::Value(*L.Written) : json::Value(nullptr);
  }
  return json::Value(std::move(O));
}

} // namespace cudadeps::cli
