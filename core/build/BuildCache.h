//===- BuildCache.h - built artifacts keyed by everything that made them ---===//
//
// Layout under the cache root ($XDG_CACHE_HOME/cudadeps):
//
//   builds/<key>/            one trusted entry: entry.json, build.log, out/
//                            (out/ holds the artifacts: the install prefix
//                            or the retagged wheels)
//   builds/<key>.lock        held while the entry is looked up or built
//   builds/.tmp-<key>-*      an entry being built (never trusted)
//   wheels/                  every built wheel under its PEP 427 name with a
//                            local version tag (+cu130torch2.11sm90): a
//                            `pip --find-links` directory a team can share
//   logs/<name>-<version>-<key12>.log   the log of the latest attempt
//
// The key is the SHA-256 of the key's inputs: one "name=value" line each
// (source commit, toolkit path and version, compiler, archs, environment,
// recipe, torch version and ABI, Python tag, platform). An entry appears
// only by renaming a complete temporary directory, entry.json written last,
// so a build killed at any point leaves no entry; the next build under the
// lock removes its leftovers.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_BUILD_BUILDCACHE_H
#define CUDADEPS_CORE_BUILD_BUILDCACHE_H

#include "core/support/FileLock.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cudadeps {

/// The inputs of a cache key, in a fixed order.
class CacheKey {
public:
  void add(llvm::StringRef Name, llvm::StringRef Value);
  /// 64 hex digits.
  std::string hash() const;
  const std::vector<std::pair<std::string, std::string>> &inputs() const {
    return Inputs;
  }

private:
  std::vector<std::pair<std::string, std::string>> Inputs;
};

/// What a trusted entry holds.
struct CacheEntry {
  std::string Key;
  std::string Dir;    // builds/<key>
  std::string OutDir; // builds/<key>/out
  std::string Package;
  std::string Version;
  std::string Commit;
  /// Paths of the entry's wheels (in OutDir; wheels/ has a copy).
  std::vector<std::string> Wheels;
};

/// An entry.json is a few hundred bytes; a larger one is not read.
inline constexpr size_t MaxBuildCacheEntryBytes = 1u << 20;

class BuildCache {
public:
  explicit BuildCache(std::string Root) : Root(std::move(Root)) {}

  const std::string &root() const { return Root; }
  std::string entryDir(llvm::StringRef Key) const;
  std::string wheelsDir() const;
  std::string logPath(llvm::StringRef Package, llvm::StringRef Version,
                      llvm::StringRef Key) const;

  /// The trusted entry of Key, if there is one (its entry.json reads back).
  std::optional<CacheEntry> lookup(llvm::StringRef Key) const;

  /// Locks Key; \p OnWait is called once when another process holds it.
  llvm::Expected<FileLock> lock(llvm::StringRef Key,
                                llvm::function_ref<void()> OnWait = {}) const;

  /// A fresh temporary entry directory for Key (with out/ inside), after
  /// removing the leftovers of killed builds of Key. Call it holding the
  /// lock.
  llvm::Expected<std::string> makeTemp(llvm::StringRef Key) const;

  /// Writes E's entry.json (with the key's inputs) into \p TempDir and
  /// renames it into place as builds/<key>. E.Dir and E.OutDir are set to
  /// the final paths.
  llvm::Error commit(llvm::StringRef TempDir, CacheEntry &E,
                     const CacheKey &Inputs) const;

private:
  std::string Root;
};

} // namespace cudadeps

#endif
