//===- SourceFetcher.h - clone a release's sources into the cache
//----------===//
//
// Sources are cloned with libgit2 (loaded only here: GitModule.h) into
// <cache>/src/<name>-<version>-<hash>/ (the hash is of the URL and the tag),
// checked out at the release's tag, verified against the commit the manifest
// pins, with their submodules, recursively. A directory that is there is
// complete: the clone is made in <cache>/src/.tmp-* and renamed into place,
// under a lock that concurrent runs share, so an interrupted or killed fetch
// leaves nothing that a later run reuses. A source that is in the cache is
// reused without touching the network; offline, one that is not is an error
// that names it.
//
// git's url.<base>.insteadOf configuration (global and system git config)
// applies to the URL and to submodule URLs, as in git itself: mirrors and
// air-gapped sites need no manifest change.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_FETCH_SOURCEFETCHER_H
#define CUDADEPS_CORE_FETCH_SOURCEFETCHER_H

#include "core/manifest/Manifest.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>

namespace cudadeps {

struct FetchRequest {
  std::string Package;     // canonical name
  std::string VersionText; // "1.6.1.post4"
  Located Url;             // the repository
  Located Tag;             // the expanded tag: "v1.6.1.post4"
  std::optional<Located> Commit; // the pinned commit (hex prefix), if any
  bool Submodules = true;
};

/// Where a fetch is, for progress output.
struct FetchProgress {
  enum class Phase { Receiving, Indexing, CheckingOut };
  Phase Now = Phase::Receiving;
  std::string Repository; // the URL (a submodule's own URL for submodules)
  uint64_t ReceivedObjects = 0;
  uint64_t TotalObjects = 0;
  uint64_t ReceivedBytes = 0;
  uint64_t IndexedDeltas = 0;
  uint64_t TotalDeltas = 0;
  uint64_t CheckedOut = 0; // files
  uint64_t TotalFiles = 0;
};

class FetchObserver {
public:
  virtual ~FetchObserver() = default;
  virtual void onFetchProgress(const FetchProgress &) {}
  /// "waiting for another cudadeps to finish fetching ...".
  virtual void onFetchNote(llvm::StringRef) {}
};

struct FetchOptions {
  std::string CacheDir; // $XDG_CACHE_HOME/cudadeps
  bool Offline = false;
  FetchObserver *Observer = nullptr;
  /// The git module (core/fetch/GitModule.h); "" = the one beside the
  /// running executable.
  std::string GitModule;
};

struct FetchedSource {
  std::string Dir;    // the checked-out tree
  std::string Commit; // full hex id HEAD is at
  bool Reused = false; // found in the cache, no network touched
  unsigned Submodules = 0; // submodules checked out (recursively)
  uint64_t ReceivedBytes = 0;
  uint64_t ReceivedObjects = 0;
  /// The cached clone of another release this one started from (only the
  /// objects it lacked were fetched); empty for a whole clone.
  std::string SeededFrom;
};

/// The fetch request of release \p Ver of \p Pkg: its git URL, its tag
/// template expanded, the commit it pins. An error when the release is not
/// in the manifest or the package has no git URL.
llvm::Expected<FetchRequest> fetchRequestFor(const Package &Pkg,
                                             const std::optional<Version> &Ver);

/// <cache>/src/<name>-<version>-<hash of url and tag>.
std::string sourceDirFor(const FetchRequest &R, llvm::StringRef CacheDir);

/// Removes the entries of \p Dir whose names start with \p Prefix: the
/// temporary directories of runs that were killed. Call it holding the lock
/// that guards them.
void removeLeftovers(llvm::StringRef Dir, llvm::StringRef Prefix);

/// Fetches R's sources (or finds them in the cache). Errors name the URL,
/// the tag and what failed; an interrupt gives an InterruptedError.
llvm::Expected<FetchedSource> fetchSource(const FetchRequest &R,
                                          const FetchOptions &Opts);

} // namespace cudadeps

#endif
