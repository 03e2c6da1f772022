//===- SourceFetcher.cpp - git clone, tag checkout, submodules ------------===//
//
// Every call of the git backend (libgit2, in libcudadeps-git.so) goes
// through check(), which turns its return code and last error into one
// llvm::Error that says what was being done.
//
//===----------------------------------------------------------------------===//
#include "core/fetch/SourceFetcher.h"

#include "core/fetch/GitModule.h"

#include "core/manifest/GitSource.h"
#include "core/manifest/Template.h"
#include "core/support/FileLock.h"
#include "core/support/Hash.h"
#include "core/support/Interrupt.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <spdlog/spdlog.h>

#include <vector>

using namespace llvm;

namespace cudadeps {

namespace {

/// A backend's status as an Error: "<what>: <libgit2's message>".
Error check(const libgit::Status &S, const Twine &What) {
  if (S.ok())
    return Error::success();
  if (S.Code == libgit::Cancelled && interruptRequested())
    return makeInterrupted(What);
  return createStringError(inconvertibleErrorCode(),
                           (What + ": " + S.Message).str());
}

using Repo = std::unique_ptr<libgit::Repository>;

/// Progress for the observer; a requested interrupt stops the transfer.
struct Callbacks : libgit::Progress {
  FetchObserver *Observer = nullptr;
  std::string Repository;
  FetchProgress Last;

  bool onTransfer(const libgit::Transfer &T) override {
    if (interruptRequested())
      return false;
    Last.Repository = Repository;
    Last.ReceivedObjects = T.ReceivedObjects;
    Last.TotalObjects = T.TotalObjects;
    Last.ReceivedBytes = T.ReceivedBytes;
    Last.IndexedDeltas = T.IndexedDeltas;
    Last.TotalDeltas = T.TotalDeltas;
    Last.Now = T.ReceivedObjects < T.TotalObjects
                   ? FetchProgress::Phase::Receiving
                   : FetchProgress::Phase::Indexing;
    if (Observer)
      Observer->onFetchProgress(Last);
    return true;
  }

  void onCheckout(size_t Done, size_t Total) override {
    Last.Repository = Repository;
    Last.Now = FetchProgress::Phase::CheckingOut;
    Last.CheckedOut = Done;
    Last.TotalFiles = Total;
    if (Observer)
      Observer->onFetchProgress(Last);
  }
};

/// The commit HEAD of an opened repository is at.
Expected<std::string> headCommit(libgit::Repository &R, StringRef Where) {
  std::string Hex;
  if (Error E = check(R.headCommit(Hex), "cannot read HEAD of " + Where))
    return E;
  return Hex;
}

/// Checks out refs/tags/<tag> (detached HEAD) and returns its commit.
Expected<std::string> checkoutTag(libgit::Repository &R,
                                  const FetchRequest &Req, Callbacks &C) {
  std::string Spec = "refs/tags/" + Req.Tag.Value + "^{commit}";
  std::string Commit;
  if (Error E =
          check(R.resolveCommit(Spec, Commit),
                "tag '" + Req.Tag.Value + "' not found in " + Req.Url.Value))
    return E;
  if (Error E = check(R.checkoutDetached(Commit, C),
                      "cannot check out tag '" + Req.Tag.Value + "' of " +
                          Req.Url.Value))
    return E;
  return Commit;
}

Error verifyPin(const FetchRequest &Req, StringRef Commit) {
  if (!Req.Commit)
    return Error::success();
  std::string Pin = StringRef(Req.Commit->Value).lower();
  if (StringRef(Commit).startswith(Pin))
    return Error::success();
  return createStringError(
      inconvertibleErrorCode(),
      "tag '%s' of %s is commit %s, but the manifest pins %s (%s:%u:%u); "
      "the tag was moved or the pin is wrong",
      Req.Tag.Value.c_str(), Req.Url.Value.c_str(), Commit.str().c_str(),
      Pin.c_str(), Req.Commit->Loc.File.c_str(), Req.Commit->Loc.Line,
      Req.Commit->Loc.Column);
}

/// Initialises and checks out every submodule of R, recursively.
Error updateSubmodules(libgit::Repository &R, StringRef Where, Callbacks &C,
                       unsigned &Count, unsigned Depth) {
  if (Depth > 16)
    return createStringError(inconvertibleErrorCode(),
                             "submodules of %s nest more than 16 deep",
                             Where.str().c_str());
  std::vector<std::string> Names;
  if (Error E = check(R.submoduleNames(Names),
                      "cannot list the submodules of " + Where))
    return E;
  for (const std::string &Name : Names) {
    std::optional<std::string> Url;
    if (Error E = check(R.submoduleUrl(Name, Url),
                        "cannot read submodule '" + Name + "' of " + Where))
      return E;
    std::string What = "submodule '" + Name + "' (" +
                       (Url ? *Url : std::string("no url")) + ") of " +
                       Where.str();
    if (Url) {
      Located L{*Url, {}};
      if (Error E = validateGitUrl(L))
        return joinErrors(createStringError(inconvertibleErrorCode(),
                                            "refusing " + What),
                          std::move(E));
    }
    C.Repository = Url ? *Url : Name;
    if (Error E = check(R.updateSubmodule(Name, C), "cannot fetch " + What))
      return E;
    ++Count;
    Repo Sub;
    if (Error E = check(R.openSubmodule(Name, Sub), "cannot open " + What))
      return E;
    if (Error E = updateSubmodules(*Sub, What, C, Count, Depth + 1))
      return E;
  }
  return Error::success();
}

/// A reusable source directory: a repository whose HEAD is the commit the
/// tag names (and the pin, if any).
Expected<FetchedSource> reuse(libgit::Backend &Git, StringRef Dir,
                              const FetchRequest &Req) {
  Repo R;
  if (Error E =
          check(Git.open(Dir.str(), R), "cannot open the cached clone " + Dir))
    return E;
  Expected<std::string> Head = headCommit(*R, Dir);
  if (!Head)
    return Head.takeError();
  std::string Spec = "refs/tags/" + Req.Tag.Value + "^{commit}";
  std::string TagCommit;
  if (Error E = check(R->resolveCommit(Spec, TagCommit),
                      "the cached clone " + Dir + " has no tag '" +
                          Req.Tag.Value + "'"))
    return E;
  if (TagCommit != *Head)
    return createStringError(inconvertibleErrorCode(),
                             "the cached clone %s is at %s, not at tag '%s'",
                             Dir.str().c_str(), Head->c_str(),
                             Req.Tag.Value.c_str());
  if (Error E = verifyPin(Req, *Head))
    return E;
  FetchedSource S;
  S.Dir = Dir.str();
  S.Commit = *Head;
  S.Reused = true;
  return S;
}

/// A complete cached clone of the same repository (another release of the
/// package) whose objects a new clone can start from; "" when none.
std::string siblingClone(libgit::Backend &Git, StringRef Parent, StringRef Dir,
                         const FetchRequest &Req) {
  std::error_code EC;
  std::string Prefix = Req.Package + "-";
  for (sys::fs::directory_iterator It(Parent, EC), End; !EC && It != End;
       It.increment(EC)) {
    StringRef Name = sys::path::filename(It->path());
    if (!Name.startswith(Prefix) || Name.endswith(".lock") ||
        It->path() == Dir || !sys::fs::is_directory(It->path()))
      continue;
    Repo R;
    std::string Url;
    if (!Git.open(It->path(), R).ok() || !R->remoteUrl("origin", Url).ok())
      continue;
    if (Req.Url.Value != Url)
      continue;
    // A clone whose objects are gone (damaged on disk) is no seed: its
    // checked-out commit must still be there.
    std::string Head;
    bool Present = false;
    if (R->headCommit(Head).ok() && R->hasObject(Head, Present).ok() &&
        Present)
      return It->path();
  }
  return "";
}

/// Only stops a local copy when an interrupt is requested.
struct Quiet : libgit::Progress {
  bool onTransfer(const libgit::Transfer &) override {
    return !interruptRequested();
  }
  void onCheckout(size_t, size_t) override {}
};

/// Clones \p Seed (local, no network) into \p Tmp, points origin at the
/// request's URL and fetches from it: only the objects the seed lacks travel.
Error seedClone(libgit::Backend &Git, Repo &R, StringRef Seed, StringRef Tmp,
                const FetchRequest &Req, Callbacks &C) {
  Quiet Local;
  if (Error E = check(Git.clone(Seed.str(), Tmp.str(), Local, R),
                      "cannot copy the cached clone " + Seed))
    return E;
  if (Error E = check(R->setRemoteUrl("origin", Req.Url.Value),
                      "cannot set the URL of " + Tmp))
    return E;
  // Tags may have moved upstream: the remote's tags replace the seed's.
  return check(R->fetch("origin",
                        {"+refs/heads/*:refs/remotes/origin/*",
                         "+refs/tags/*:refs/tags/*"},
                        C),
               "cannot fetch " + Req.Url.Value + " (for tag '" + Req.Tag.Value +
                   "')");
}

} // namespace

void removeLeftovers(StringRef Dir, StringRef Prefix) {
  std::error_code EC;
  std::vector<std::string> Stale;
  for (sys::fs::directory_iterator It(Dir, EC), End; !EC && It != End;
       It.increment(EC))
    if (sys::path::filename(It->path()).startswith(Prefix))
      Stale.push_back(It->path());
  for (const std::string &P : Stale) {
    spdlog::debug("removing the leftover {}", P);
    (void)sys::fs::remove_directories(P);
  }
}

std::string sourceDirFor(const FetchRequest &R, StringRef CacheDir) {
  SmallString<256> Dir(CacheDir);
  sys::path::append(Dir, "src",
                    R.Package + "-" + R.VersionText + "-" +
                        sha256Hex(R.Url.Value + "\n" + R.Tag.Value)
                            .substr(0, 12));
  return std::string(Dir);
}

Expected<FetchedSource> fetchSource(const FetchRequest &Req,
                                    const FetchOptions &Opts) {
  if (Error E = validateGitUrl(Req.Url))
    return E;
  if (Error E = validateGitRef(Req.Tag))
    return E;
  if (Error E = validateCachePath({Req.Package + "-" + Req.VersionText,
                                   Req.Url.Loc}))
    return E;
  Expected<libgit::Backend *> Git = loadGitBackend(Opts.GitModule);
  if (!Git)
    return Git.takeError();
  std::string Dir = sourceDirFor(Req, Opts.CacheDir);
  std::string What = Req.Package + " " + Req.VersionText + " (" +
                     Req.Url.Value + " at tag '" + Req.Tag.Value + "')";

  auto Lock = FileLock::acquire(Dir + ".lock", [&] {
    if (Opts.Observer)
      Opts.Observer->onFetchNote("waiting for another cudadeps to finish "
                                 "fetching " + What);
  });
  if (!Lock)
    return Lock.takeError();

  if (sys::fs::is_directory(Dir)) {
    Expected<FetchedSource> S = reuse(**Git, Dir, Req);
    if (S || Opts.Offline)
      return S;
    // A clone that no longer matches (a moved tag): fetch it again.
    spdlog::debug("fetch: not reusing {}: {}", Dir, toString(S.takeError()));
    if (std::error_code EC = sys::fs::remove_directories(Dir))
      return createStringError(EC, "cannot remove the stale clone %s: %s",
                               Dir.c_str(), EC.message().c_str());
  }
  if (Opts.Offline)
    return createStringError(
        inconvertibleErrorCode(),
        "offline: the sources of %s are not in the cache (%s); run once "
        "without --offline to fetch them",
        What.c_str(), Dir.c_str());

  // Clone into a temporary directory beside the final one, then rename.
  // Under the lock, any earlier temporary of this source is a leftover of a
  // killed run.
  StringRef Parent = sys::path::parent_path(Dir);
  std::string TmpPrefix = (".tmp-" + sys::path::filename(Dir)).str();
  removeLeftovers(Parent, TmpPrefix);
  SmallString<256> Tmp;
  SmallString<256> Model(Parent);
  sys::path::append(Model, TmpPrefix);
  if (std::error_code EC = sys::fs::createUniqueDirectory(Model, Tmp))
    return createStringError(EC, "cannot create a directory under %s: %s",
                             sys::path::parent_path(Dir).str().c_str(),
                             EC.message().c_str());
  auto Cleanup = make_scope_exit([&] {
    if (!Tmp.empty())
      (void)sys::fs::remove_directories(Tmp);
  });

  Callbacks C;
  C.Observer = Opts.Observer;
  C.Repository = Req.Url.Value;
  Repo R;
  FetchedSource S;
  // Another release's clone of the same repository holds most objects: start
  // from it and fetch only what is missing. Any failure falls back to a
  // whole clone.
  if (std::string Seed = siblingClone(**Git, Parent, Dir, Req); !Seed.empty()) {
    if (Error E = seedClone(**Git, R, Seed, Tmp, Req, C)) {
      if (E.isA<InterruptedError>())
        return E;
      spdlog::debug("fetch: not seeding from {}: {}", Seed,
                    toString(std::move(E)));
      R.reset();
      (void)sys::fs::remove_directories(Tmp);
      (void)sys::fs::create_directory(Tmp);
      C.Last = FetchProgress();
    } else {
      S.SeededFrom = Seed;
    }
  }
  if (S.SeededFrom.empty()) {
    if (Error E = check((*Git)->clone(Req.Url.Value, std::string(Tmp), C, R),
                        "cannot clone " + Req.Url.Value + " (for tag '" +
                            Req.Tag.Value + "')"))
      return E;
  }
  S.ReceivedBytes = C.Last.ReceivedBytes;
  S.ReceivedObjects = C.Last.ReceivedObjects;
  Expected<std::string> Commit = checkoutTag(*R, Req, C);
  if (!Commit)
    return Commit.takeError();
  if (Error E = verifyPin(Req, *Commit))
    return E;
  if (Req.Submodules)
    if (Error E = updateSubmodules(*R, Req.Url.Value, C, S.Submodules, 0))
      return E;
  S.ReceivedBytes = std::max(S.ReceivedBytes, C.Last.ReceivedBytes);
  R.reset();
  if (std::error_code EC = sys::fs::rename(Tmp, Dir))
    return createStringError(EC, "cannot move the clone into %s: %s",
                             Dir.c_str(), EC.message().c_str());
  Tmp.clear();
  S.Dir = Dir;
  S.Commit = *Commit;
  return S;
}

Expected<FetchRequest> fetchRequestFor(const Package &Pkg,
                                       const std::optional<Version> &Ver) {
  const Release *Rel = Ver ? Pkg.findRelease(*Ver) : nullptr;
  if (!Rel)
    return createStringError(inconvertibleErrorCode(),
                             "%s: the chosen release is not in its manifest",
                             Pkg.Name.c_str());
  if (!Pkg.Git)
    return createStringError(inconvertibleErrorCode(),
                             "%s has no `git` URL in its manifest: its "
                             "sources cannot be fetched",
                             Pkg.Name.c_str());
  const Located &TagTmpl = Pkg.tagTemplateFor(*Rel);
  Expected<std::string> Tag = expandTemplate(
      TagTmpl.Value, [&](StringRef N) -> std::optional<std::string> {
        if (N == "version")
          return Rel->VersionText;
        return std::nullopt;
      });
  if (!Tag)
    return Tag.takeError();
  FetchRequest R;
  R.Package = Pkg.canonicalName();
  R.VersionText = Rel->VersionText;
  R.Url = *Pkg.Git;
  R.Tag = {*Tag, TagTmpl.Loc};
  if (Rel->Commit)
    R.Commit = *Rel->Commit;
  R.Submodules = Pkg.Build.Submodules;
  return R;
}

} // namespace cudadeps
