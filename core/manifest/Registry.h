//===- Registry.h - package manifests looked up by package name -----------===//
//
// A registry is an ordered list of directories holding package manifests as
// *.toml files, one package per file, any file name (DESIGN.md sections 4 and
// 6). The search order is --registry DIR (repeatable, in order), the
// project's own `registry` directories, $CUDADEPS_REGISTRY (colon-separated),
// then the installed <prefix>/share/cudadeps/manifests; the first directory
// that defines a package wins. A package defined twice in one directory is
// an error naming both files.
//
// Directories are indexed lazily, in order, and only until the package asked
// for is found. Indexing a directory checks every manifest in it (a broken
// or duplicate one is an error even when another package is asked for).
//
// With a cache directory, what each manifest parsed to is kept in a load
// cache (core/support/LoadCache.h) with the package's name, keyed on the
// file's identity: a directory whose files are unchanged is indexed from the
// cache without parsing, and a manifest is decoded only when it is asked
// for. A changed, added or removed file is parsed again (and its errors
// reported) exactly as without the cache.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_MANIFEST_REGISTRY_H
#define CUDADEPS_CORE_MANIFEST_REGISTRY_H

#include "core/manifest/Manifest.h"
#include "core/support/SharedBytes.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <deque>
#include <map>
#include <string>
#include <vector>

namespace cudadeps {

/// The directories to search, in order: \p CommandLine (--registry), then
/// \p ProjectDirs (a project's `registry`), then the non-empty entries of
/// \p EnvValue ($CUDADEPS_REGISTRY, colon-separated), then \p InstalledDir
/// (skipped when empty). Duplicates after the first are dropped.
std::vector<std::string>
registrySearchPath(llvm::ArrayRef<std::string> CommandLine,
                   llvm::ArrayRef<std::string> ProjectDirs,
                   llvm::StringRef EnvValue, llvm::StringRef InstalledDir);

class Registry {
public:
  /// \p Dirs in search order. A directory that does not exist is skipped
  /// (callers that require one to exist, like --registry, check it first);
  /// a path that exists but is not a directory is an error when reached.
  /// \p CacheDir: the cudadeps cache directory for the load cache; ""
  /// parses every manifest each time.
  explicit Registry(std::vector<std::string> Dirs, std::string CacheDir = "");

  /// The manifest that defines package \p Name (compared in canonical form:
  /// causal_conv1d finds causal-conv1d), or nullptr when no directory does.
  /// Any invalid manifest in a directory searched is an error.
  llvm::Expected<const Manifest *> find(llvm::StringRef Name);

  /// Whether some directory defines package \p Name, from the directories'
  /// indexes: no manifest is decoded (find() would find it, unless its
  /// file changes meanwhile). Errors as find().
  llvm::Expected<bool> has(llvm::StringRef Name);

  /// Every package in the registry, each from the first directory defining
  /// it, ordered by directory then canonical name. Indexes every directory.
  llvm::Expected<std::vector<const Manifest *>> all();

  llvm::ArrayRef<std::string> dirs() const { return DirPaths; }

  /// How many manifests were parsed from their files (the others came from
  /// the load cache): for tests and debug output.
  size_t parsedCount() const { return Parsed; }
  /// How many manifests are held in memory, parsed or decoded (the rest
  /// are still encoded blobs of the load cache).
  size_t loadedCount() const { return Storage.size(); }

private:
  /// A manifest of an indexed directory: parsed, or still an encoded blob
  /// of the load cache.
  struct Slot {
    std::string File;
    SharedBytes Blob;
    /// The blob's releases' requirements as numbers into its directory's
    /// Table (core/manifest/RequirementIds.h); empty without them.
    llvm::StringRef Ids;
    const Manifest *Loaded = nullptr;
  };
  struct Dir {
    std::string Path;
    bool Indexed = false;
    llvm::StringMap<Slot> ByName; // canonical name
    SourcePath CacheFile; // the load cache file of the blobs (made once)
    std::shared_ptr<const RequirementTable> Table;
  };
  llvm::Error index(Dir &D);
  llvm::Expected<const Manifest *> load(const Dir &D, llvm::StringRef Key,
                                        Slot &S);

  std::vector<std::string> DirPaths;
  std::string CacheDir;
  size_t Parsed = 0;
  std::vector<Dir> Dirs;
  std::deque<Manifest> Storage; // stable addresses for the pointers above
};

/// Loads every package manifest of \p Dirs (first directory wins).
llvm::Expected<std::vector<Manifest>>
loadRegistry(llvm::ArrayRef<std::string> Dirs);

} // namespace cudadeps

#endif
