//===- GitBackend.h - the libgit2 operations fetching uses, loaded on demand
//===//
//
// libgit2 brings a dozen libraries with it (mbedtls, libssh2, krb5, libcrypto,
// http-parser, pcre2 ...): linked into cudadeps, the dynamic loader would map
// and relocate them at every start, also for a warm `resolve` that never
// fetches (2.4 ms of a few-millisecond pre-build hook). So the libgit2 calls
// live in a module of their own, <prefix>/lib/cudadeps/libcudadeps-git.so,
// which only a command that fetches opens (dlopen), like ninja's or LLVM's
// plugins: an extern "C" entry point that checks an ABI version and returns
// the backend, and a loader that tells "cannot be loaded", "not a cudadeps
// git module" and "built for another cudadeps" apart.
//
// The interface holds only standard C++ types: the module links libgit2 and
// the C++ runtime, nothing of cudadeps or LLVM, so no state is duplicated. It
// mirrors the libgit2 calls SourceFetcher makes, one for one; what a failure
// means (an Error with context, an interruption) is decided in SourceFetcher.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_FETCH_GITBACKEND_H
#define CUDADEPS_CORE_FETCH_GITBACKEND_H

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cudadeps::libgit {

/// Bumped when anything in this header changes.
inline constexpr int BackendAbiVersion = 2;
/// The module's entry point: Backend *cudadeps_git_backend(int AbiVersion),
/// null when the version is not its own.
inline constexpr const char *BackendEntryPoint = "cudadeps_git_backend";
/// libgit2's GIT_EUSER: a callback asked to stop.
inline constexpr int Cancelled = -7;

/// The outcome of one call: Code < 0 is libgit2's error code, Message its
/// last error text.
struct Status {
  int Code = 0;
  std::string Message;
  bool ok() const { return Code >= 0; }
};

struct Transfer {
  uint64_t ReceivedObjects = 0;
  uint64_t TotalObjects = 0;
  uint64_t ReceivedBytes = 0;
  uint64_t IndexedDeltas = 0;
  uint64_t TotalDeltas = 0;
};

/// Progress of a clone, fetch or checkout.
class Progress {
public:
  virtual ~Progress() = default;
  /// Returns false to stop the transfer (the call then fails with Cancelled).
  virtual bool onTransfer(const Transfer &T) = 0;
  virtual void onCheckout(size_t Done, size_t Total) = 0;
};

class Repository {
public:
  virtual ~Repository() = default;
  /// The commit HEAD is at (40 hex digits).
  virtual Status headCommit(std::string &Hex) = 0;
  /// Whether the object \p Hex (40 hex digits) is in the object database.
  virtual Status hasObject(const std::string &Hex, bool &Present) = 0;
  /// The commit \p Spec names ("refs/tags/v1.0^{commit}").
  virtual Status resolveCommit(const std::string &Spec, std::string &Hex) = 0;
  /// Checks out commit \p Hex, overwriting the work tree, and detaches HEAD
  /// there.
  virtual Status checkoutDetached(const std::string &Hex, Progress &P) = 0;
  virtual Status remoteUrl(const std::string &Remote, std::string &Url) = 0;
  virtual Status setRemoteUrl(const std::string &Remote,
                              const std::string &Url) = 0;
  /// Fetches \p Refspecs from \p Remote with every tag, pruning what the
  /// remote no longer has.
  virtual Status fetch(const std::string &Remote,
                       const std::vector<std::string> &Refspecs,
                       Progress &P) = 0;
  virtual Status submoduleNames(std::vector<std::string> &Names) = 0;
  /// The URL .gitmodules gives (nullopt: none).
  virtual Status submoduleUrl(const std::string &Name,
                              std::optional<std::string> &Url) = 0;
  /// Initialises, fetches and checks out submodule \p Name (overwriting).
  virtual Status updateSubmodule(const std::string &Name, Progress &P) = 0;
  virtual Status openSubmodule(const std::string &Name,
                               std::unique_ptr<Repository> &Sub) = 0;
};

class Backend {
public:
  virtual ~Backend() = default;
  virtual Status open(const std::string &Dir,
                      std::unique_ptr<Repository> &Out) = 0;
  /// Clones \p Url (a URL or a local repository) into \p Dir with every
  /// tag, checking nothing out.
  virtual Status clone(const std::string &Url, const std::string &Dir,
                       Progress &P, std::unique_ptr<Repository> &Out) = 0;
};

} // namespace cudadeps::libgit

#endif
