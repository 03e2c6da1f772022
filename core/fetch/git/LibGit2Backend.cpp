//===- LibGit2Backend.cpp - libcudadeps-git.so: the git backend on libgit2 ===//
//
// Built as a module of its own (see core/fetch/GitBackend.h): it links
// libgit2 and nothing of cudadeps. Each method is the libgit2 call it is
// named after, its return code and last error message passed back.
//
//===----------------------------------------------------------------------===//
#include "core/fetch/GitBackend.h"

#include <git2.h>

#include <mutex>

namespace cudadeps::libgit {
namespace {

static_assert(Cancelled == GIT_EUSER, "GitBackend.h names libgit2's GIT_EUSER");

Status status(int Rc) {
  Status S;
  S.Code = Rc;
  if (Rc < 0) {
    const git_error *E = git_error_last();
    S.Message = E && E->message ? E->message : "unknown libgit2 error";
  }
  return S;
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
  T *get() const { return P; }
  T *release() {
    T *R = P;
    P = nullptr;
    return R;
  }
};
using RepoPtr = GitPtr<git_repository, git_repository_free>;
using ObjectPtr = GitPtr<git_object, git_object_free>;
using SubmodulePtr = GitPtr<git_submodule, git_submodule_free>;
using RemotePtr = GitPtr<git_remote, git_remote_free>;

int onTransfer(const git_indexer_progress *S, void *Payload) {
  Transfer T;
  T.ReceivedObjects = S->received_objects;
  T.TotalObjects = S->total_objects;
  T.ReceivedBytes = S->received_bytes;
  T.IndexedDeltas = S->indexed_deltas;
  T.TotalDeltas = S->total_deltas;
  return static_cast<Progress *>(Payload)->onTransfer(T) ? 0 : GIT_EUSER;
}

void onCheckout(const char *, size_t Done, size_t Total, void *Payload) {
  static_cast<Progress *>(Payload)->onCheckout(Done, Total);
}

void setCallbacks(git_remote_callbacks &RC, git_checkout_options &CO,
                  Progress &P) {
  RC.transfer_progress = onTransfer;
  RC.payload = &P;
  CO.progress_cb = onCheckout;
  CO.progress_payload = &P;
}

std::string oidHex(const git_oid *Id) {
  char Buf[GIT_OID_HEXSZ + 1];
  git_oid_tostr(Buf, sizeof Buf, Id);
  return Buf;
}

class LibGit2Repository : public Repository {
public:
  explicit LibGit2Repository(git_repository *R) : R(R) {}
  ~LibGit2Repository() override { git_repository_free(R); }

  Status headCommit(std::string &Hex) override {
    git_oid Id;
    Status S = status(git_reference_name_to_id(&Id, R, "HEAD"));
    if (S.ok())
      Hex = oidHex(&Id);
    return S;
  }

  Status hasObject(const std::string &Hex, bool &Present) override {
    // An existence check only: libgit2 1.5 leaks on the error paths of the
    // calls that would read a missing object.
    git_oid Id;
    Status S = status(git_oid_fromstr(&Id, Hex.c_str()));
    git_odb *Odb = nullptr;
    if (S.ok())
      S = status(git_repository_odb(&Odb, R));
    if (S.ok()) {
      Present = git_odb_exists(Odb, &Id) == 1;
      git_odb_free(Odb);
    }
    return S;
  }

  Status resolveCommit(const std::string &Spec, std::string &Hex) override {
    ObjectPtr Commit;
    Status S = status(git_revparse_single(Commit.out(), R, Spec.c_str()));
    if (S.ok())
      Hex = oidHex(git_object_id(Commit.get()));
    return S;
  }

  Status checkoutDetached(const std::string &Hex, Progress &P) override {
    git_oid Id;
    if (Status S = status(git_oid_fromstr(&Id, Hex.c_str())); !S.ok())
      return S;
    ObjectPtr Commit;
    if (Status S =
            status(git_object_lookup(Commit.out(), R, &Id, GIT_OBJECT_COMMIT));
        !S.ok())
      return S;
    git_checkout_options CO = GIT_CHECKOUT_OPTIONS_INIT;
    CO.checkout_strategy = GIT_CHECKOUT_FORCE;
    CO.progress_cb = onCheckout;
    CO.progress_payload = &P;
    if (Status S = status(git_checkout_tree(R, Commit.get(), &CO)); !S.ok())
      return S;
    return status(git_repository_set_head_detached(R, &Id));
  }

  Status remoteUrl(const std::string &Remote, std::string &Url) override {
    RemotePtr O;
    Status S = status(git_remote_lookup(O.out(), R, Remote.c_str()));
    if (S.ok()) {
      const char *U = git_remote_url(O.get());
      Url = U ? U : "";
    }
    return S;
  }

  Status setRemoteUrl(const std::string &Remote,
                      const std::string &Url) override {
    return status(git_remote_set_url(R, Remote.c_str(), Url.c_str()));
  }

  Status fetch(const std::string &Remote,
               const std::vector<std::string> &Refspecs, Progress &P) override {
    RemotePtr O;
    if (Status S = status(git_remote_lookup(O.out(), R, Remote.c_str()));
        !S.ok())
      return S;
    git_fetch_options FO = GIT_FETCH_OPTIONS_INIT;
    git_checkout_options Unused = GIT_CHECKOUT_OPTIONS_INIT;
    setCallbacks(FO.callbacks, Unused, P);
    FO.download_tags = GIT_REMOTE_DOWNLOAD_TAGS_ALL;
    FO.prune = GIT_FETCH_PRUNE;
    std::vector<char *> Specs;
    for (const std::string &Spec : Refspecs)
      Specs.push_back(const_cast<char *>(Spec.c_str()));
    git_strarray Array = {Specs.data(), Specs.size()};
    return status(git_remote_fetch(O.get(), &Array, &FO, "fetch"));
  }

  Status submoduleNames(std::vector<std::string> &Names) override {
    return status(git_submodule_foreach(
        R,
        [](git_submodule *, const char *Name, void *Payload) {
          static_cast<std::vector<std::string> *>(Payload)->push_back(Name);
          return 0;
        },
        &Names));
  }

  Status submoduleUrl(const std::string &Name,
                      std::optional<std::string> &Url) override {
    SubmodulePtr SM;
    Status S = status(git_submodule_lookup(SM.out(), R, Name.c_str()));
    if (S.ok()) {
      const char *U = git_submodule_url(SM.get());
      Url = U ? std::optional<std::string>(U) : std::nullopt;
    }
    return S;
  }

  Status updateSubmodule(const std::string &Name, Progress &P) override {
    SubmodulePtr SM;
    if (Status S = status(git_submodule_lookup(SM.out(), R, Name.c_str()));
        !S.ok())
      return S;
    git_submodule_update_options UO = GIT_SUBMODULE_UPDATE_OPTIONS_INIT;
    setCallbacks(UO.fetch_opts.callbacks, UO.checkout_opts, P);
    UO.checkout_opts.checkout_strategy = GIT_CHECKOUT_FORCE;
    return status(git_submodule_update(SM.get(), /*init=*/1, &UO));
  }

  Status openSubmodule(const std::string &Name,
                       std::unique_ptr<Repository> &Sub) override {
    SubmodulePtr SM;
    if (Status S = status(git_submodule_lookup(SM.out(), R, Name.c_str()));
        !S.ok())
      return S;
    RepoPtr Opened;
    Status S = status(git_submodule_open(Opened.out(), SM.get()));
    if (S.ok())
      Sub = std::make_unique<LibGit2Repository>(Opened.release());
    return S;
  }

private:
  git_repository *R;
};

class LibGit2Backend : public Backend {
public:
  Status open(const std::string &Dir,
              std::unique_ptr<Repository> &Out) override {
    RepoPtr R;
    Status S = status(git_repository_open(R.out(), Dir.c_str()));
    if (S.ok())
      Out = std::make_unique<LibGit2Repository>(R.release());
    return S;
  }

  Status clone(const std::string &Url, const std::string &Dir, Progress &P,
               std::unique_ptr<Repository> &Out) override {
    git_clone_options CO = GIT_CLONE_OPTIONS_INIT;
    setCallbacks(CO.fetch_opts.callbacks, CO.checkout_opts, P);
    CO.checkout_opts.checkout_strategy = GIT_CHECKOUT_NONE;
    CO.fetch_opts.download_tags = GIT_REMOTE_DOWNLOAD_TAGS_ALL;
    RepoPtr R;
    Status S = status(git_clone(R.out(), Url.c_str(), Dir.c_str(), &CO));
    if (S.ok())
      Out = std::make_unique<LibGit2Repository>(R.release());
    return S;
  }
};

} // namespace
} // namespace cudadeps::libgit

extern "C" __attribute__((visibility("default"))) cudadeps::libgit::Backend *
cudadeps_git_backend(int AbiVersion) {
  if (AbiVersion != cudadeps::libgit::BackendAbiVersion)
    return nullptr;
  // One libgit2 initialisation and one backend for the process; the module
  // is never unloaded.
  static std::once_flag Once;
  std::call_once(Once, [] { git_libgit2_init(); });
  static cudadeps::libgit::LibGit2Backend Backend;
  return &Backend;
}
