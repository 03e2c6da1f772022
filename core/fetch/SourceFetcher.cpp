//===- SourceFetcher.cpp - libgit2 clone, tag checkout, submodules --------===//
//
// All libgit2 calls go through check(), which turns a libgit2 return code
// and its last error into one llvm::Error that says what was being done.
//
//===----------------------------------------------------------------------===//
#include "core/fetch/SourceFetcher.h"

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

#include <git2.h>
#include <spdlog/spdlog.h>

#include <mutex>
#include <vector>

using namespace llvm;

namespace cudadeps {

namespace {

/// One libgit2 initialisation for the process.
void initGit() {
  static std::once_flag Once;
  std::call_once(Once, [] { git_libgit2_init(); });
}

/// A libgit2 return code as an Error: "<what>: <libgit2's message>".
Error check(int Rc, const Twine &What) {
  if (Rc >= 0)
    return Error::success();
  if (Rc == GIT_EUSER && interruptRequested())
    return makeInterrupted(What);
  const git_error *E = git_error_last();
  std::string Msg = E && E->message ? E->message : "unknown libgit2 error";
  return createStringError(inconvertibleErrorCode(),
                           (What + ": " + Msg).str());
}

template <typename T, void (*Free)(T *)> struct GitPtr {
  T *P = nullptr;
  GitPtr() = default;
  GitPtr(const GitPtr &) = delete;
  GitPtr &operator=(const GitPtr &) = delete;
  ~GitPtr() {
    if (P)
      Free(P);
  }
  T **out() { return &P; }
  void reset() {
    if (P)
      Free(P);
    P = nullptr;
  }
  T *get() const { return P; }
};
using Repo = GitPtr<git_repository, git_repository_free>;
using Object = GitPtr<git_object, git_object_free>;
using Submodule = GitPtr<git_submodule, git_submodule_free>;
using Remote = GitPtr<git_remote, git_remote_free>;

struct Callbacks {
  FetchObserver *Observer = nullptr;
  std::string Repository;
  FetchProgress Last;
};

int onTransfer(const git_indexer_progress *S, void *Payload) {
  auto *C = static_cast<Callbacks *>(Payload);
  if (interruptRequested())
    return GIT_EUSER;
  C->Last.Repository = C->Repository;
  C->Last.ReceivedObjects = S->received_objects;
  C->Last.TotalObjects = S->total_objects;
  C->Last.ReceivedBytes = S->received_bytes;
  C->Last.IndexedDeltas = S->indexed_deltas;
  C->Last.TotalDeltas = S->total_deltas;
  C->Last.Now = S->received_objects < S->total_objects
                    ? FetchProgress::Phase::Receiving
                    : FetchProgress::Phase::Indexing;
  if (C->Observer)
    C->Observer->onFetchProgress(C->Last);
  return 0;
}

void onCheckout(const char *, size_t Done, size_t Total, void *Payload) {
  auto *C = static_cast<Callbacks *>(Payload);
  C->Last.Repository = C->Repository;
  C->Last.Now = FetchProgress::Phase::CheckingOut;
  C->Last.CheckedOut = Done;
  C->Last.TotalFiles = Total;
  if (C->Observer)
    C->Observer->onFetchProgress(C->Last);
}

void setCallbacks(git_remote_callbacks &RC, git_checkout_options &CO,
                  Callbacks &C) {
  RC.transfer_progress = onTransfer;
  RC.payload = &C;
  CO.progress_cb = onCheckout;
  CO.progress_payload = &C;
}

std::string oidHex(const git_oid *Id) {
  char Buf[GIT_OID_HEXSZ + 1];
  git_oid_tostr(Buf, sizeof Buf, Id);
  return Buf;
}

/// The commit HEAD of an opened repository is at.
Expected<std::string> headCommit(git_repository *R, StringRef Where) {
  git_oid Id;
  if (Error E = check(git_reference_name_to_id(&Id, R, "HEAD"),
                      "cannot read HEAD of " + Where))
    return std::move(E);
  return oidHex(&Id);
}

/// Checks out refs/tags/<tag> (detached HEAD) and returns its commit.
Expected<std::string> checkoutTag(git_repository *R, const FetchRequest &Req,
                                  Callbacks &C) {
  std::string Spec = "refs/tags/" + Req.Tag.Value + "^{commit}";
  Object Commit;
  if (Error E = check(git_revparse_single(Commit.out(), R, Spec.c_str()),
                      "tag '" + Req.Tag.Value + "' not found in " +
                          Req.Url.Value))
    return std::move(E);
  git_checkout_options CO = GIT_CHECKOUT_OPTIONS_INIT;
  CO.checkout_strategy = GIT_CHECKOUT_FORCE;
  CO.progress_cb = onCheckout;
  CO.progress_payload = &C;
  if (Error E = check(git_checkout_tree(R, Commit.get(), &CO),
                      "cannot check out tag '" + Req.Tag.Value + "' of " +
                          Req.Url.Value))
    return std::move(E);
  const git_oid *Id = git_object_id(Commit.get());
  if (Error E = check(git_repository_set_head_detached(R, Id),
                      "cannot set HEAD to tag '" + Req.Tag.Value + "'"))
    return std::move(E);
  return oidHex(Id);
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

struct SubmoduleNames {
  std::vector<std::string> Names;
};

int collectSubmodule(git_submodule *, const char *Name, void *Payload) {
  static_cast<SubmoduleNames *>(Payload)->Names.push_back(Name);
  return 0;
}

/// Initialises and checks out every submodule of R, recursively.
Error updateSubmodules(git_repository *R, StringRef Where, Callbacks &C,
                       unsigned &Count, unsigned Depth) {
  if (Depth > 16)
    return createStringError(inconvertibleErrorCode(),
                             "submodules of %s nest more than 16 deep",
                             Where.str().c_str());
  SubmoduleNames N;
  if (Error E = check(git_submodule_foreach(R, collectSubmodule, &N),
                      "cannot list the submodules of " + Where))
    return E;
  for (const std::string &Name : N.Names) {
    Submodule SM;
    if (Error E = check(git_submodule_lookup(SM.out(), R, Name.c_str()),
                        "cannot read submodule '" + Name + "' of " + Where))
      return E;
    const char *Url = git_submodule_url(SM.get());
    std::string What = "submodule '" + Name + "' (" +
                       (Url ? Url : "no url") + ") of " + Where.str();
    if (Url) {
      Located L{Url, {}};
      if (Error E = validateGitUrl(L))
        return joinErrors(createStringError(inconvertibleErrorCode(),
                                            "refusing " + What),
                          std::move(E));
    }
    git_submodule_update_options UO = GIT_SUBMODULE_UPDATE_OPTIONS_INIT;
    C.Repository = Url ? Url : Name;
    setCallbacks(UO.fetch_opts.callbacks, UO.checkout_opts, C);
    UO.checkout_opts.checkout_strategy = GIT_CHECKOUT_FORCE;
    if (Error E = check(git_submodule_update(SM.get(), /*init=*/1, &UO),
                        "cannot fetch " + What))
      return E;
    ++Count;
    Repo Sub;
    if (Error E = check(git_submodule_open(Sub.out(), SM.get()),
                        "cannot open " + What))
      return E;
    if (Error E = updateSubmodules(Sub.get(), What, C, Count, Depth + 1))
      return E;
  }
  return Error::success();
}

/// A reusable source directory: a repository whose HEAD is the commit the
/// tag names (and the pin, if any).
Expected<FetchedSource> reuse(StringRef Dir, const FetchRequest &Req) {
  Repo R;
  if (Error E = check(git_repository_open(R.out(), Dir.str().c_str()),
                      "cannot open the cached clone " + Dir))
    return std::move(E);
  Expected<std::string> Head = headCommit(R.get(), Dir);
  if (!Head)
    return Head.takeError();
  Object Tag;
  std::string Spec = "refs/tags/" + Req.Tag.Value + "^{commit}";
  if (Error E = check(git_revparse_single(Tag.out(), R.get(), Spec.c_str()),
                      "the cached clone " + Dir + " has no tag '" +
                          Req.Tag.Value + "'"))
    return std::move(E);
  std::string TagCommit = oidHex(git_object_id(Tag.get()));
  if (TagCommit != *Head)
    return createStringError(inconvertibleErrorCode(),
                             "the cached clone %s is at %s, not at tag '%s'",
                             Dir.str().c_str(), Head->c_str(),
                             Req.Tag.Value.c_str());
  if (Error E = verifyPin(Req, *Head))
    return std::move(E);
  FetchedSource S;
  S.Dir = Dir.str();
  S.Commit = *Head;
  S.Reused = true;
  return S;
}

/// A complete cached clone of the same repository (another release of the
/// package), whose objects a new clone can start from; "" when none.
std::string siblingClone(StringRef Parent, StringRef Dir,
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
    if (git_repository_open(R.out(), It->path().c_str()) < 0)
      continue;
    Remote O;
    if (git_remote_lookup(O.out(), R.get(), "origin") < 0)
      continue;
    const char *Url = git_remote_url(O.get());
    if (Url && Req.Url.Value == Url)
      return It->path();
  }
  return "";
}

/// Clones \p Seed (local, no network) into \p Tmp, points origin at the
/// request's URL and fetches from it: only the objects the seed lacks travel.
Error seedClone(Repo &R, StringRef Seed, StringRef Tmp,
                const FetchRequest &Req, Callbacks &C) {
  git_clone_options CO = GIT_CLONE_OPTIONS_INIT;
  CO.checkout_opts.checkout_strategy = GIT_CHECKOUT_NONE;
  CO.fetch_opts.download_tags = GIT_REMOTE_DOWNLOAD_TAGS_ALL;
  if (Error E = check(git_clone(R.out(), Seed.str().c_str(),
                                Tmp.str().c_str(), &CO),
                      "cannot copy the cached clone " + Seed))
    return E;
  if (Error E = check(git_remote_set_url(R.get(), "origin",
                                         Req.Url.Value.c_str()),
                      "cannot set the URL of " + Tmp))
    return E;
  Remote O;
  if (Error E = check(git_remote_lookup(O.out(), R.get(), "origin"),
                      "cannot read the remote of " + Tmp))
    return E;
  git_fetch_options FO = GIT_FETCH_OPTIONS_INIT;
  git_checkout_options Unused = GIT_CHECKOUT_OPTIONS_INIT;
  setCallbacks(FO.callbacks, Unused, C);
  FO.download_tags = GIT_REMOTE_DOWNLOAD_TAGS_ALL;
  FO.prune = GIT_FETCH_PRUNE;
  // Tags may have moved upstream: the remote's tags replace the seed's.
  char Heads[] = "+refs/heads/*:refs/remotes/origin/*";
  char Tags[] = "+refs/tags/*:refs/tags/*";
  char *Specs[] = {Heads, Tags};
  git_strarray Refspecs = {Specs, 2};
  return check(git_remote_fetch(O.get(), &Refspecs, &FO, "fetch"),
               "cannot fetch " + Req.Url.Value + " (for tag '" +
                   Req.Tag.Value + "')");
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
    return std::move(E);
  if (Error E = validateGitRef(Req.Tag))
    return std::move(E);
  if (Error E = validateCachePath({Req.Package + "-" + Req.VersionText,
                                   Req.Url.Loc}))
    return std::move(E);
  initGit();
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
    Expected<FetchedSource> S = reuse(Dir, Req);
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
  if (std::string Seed = siblingClone(Parent, Dir, Req); !Seed.empty()) {
    if (Error E = seedClone(R, Seed, Tmp, Req, C)) {
      if (E.isA<InterruptedError>())
        return std::move(E);
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
    git_clone_options CO = GIT_CLONE_OPTIONS_INIT;
    setCallbacks(CO.fetch_opts.callbacks, CO.checkout_opts, C);
    CO.checkout_opts.checkout_strategy = GIT_CHECKOUT_NONE;
    CO.fetch_opts.download_tags = GIT_REMOTE_DOWNLOAD_TAGS_ALL;
    if (Error E = check(git_clone(R.out(), Req.Url.Value.c_str(),
                                  Tmp.c_str(), &CO),
                        "cannot clone " + Req.Url.Value + " (for tag '" +
                            Req.Tag.Value + "')"))
      return std::move(E);
  }
  S.ReceivedBytes = C.Last.ReceivedBytes;
  S.ReceivedObjects = C.Last.ReceivedObjects;
  Expected<std::string> Commit = checkoutTag(R.get(), Req, C);
  if (!Commit)
    return Commit.takeError();
  if (Error E = verifyPin(Req, *Commit))
    return std::move(E);
  if (Req.Submodules)
    if (Error E = updateSubmodules(R.get(), Req.Url.Value, C, S.Submodules,
                                   0))
      return std::move(E);
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
  R.Commit = Rel->Commit;
  R.Submodules = Pkg.Build.Submodules;
  return R;
}

} // namespace cudadeps
