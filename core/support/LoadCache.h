//===- LoadCache.h - what was parsed from a directory, kept on disk -------===//
//
// Parsing TOML and validating it is most of what loading a large registry
// or the knowledge base costs, and the files rarely change. A LoadCache keeps,
// for one source directory, what was parsed from each file (a blob written
// by BinaryCodec.h) beside the file's identity, in
//   <cache dir>/loaded/<kind>-<hash of the directory>.bin
// An entry of a file is used only while the file's identity is the same:
// device, inode, size, and modification and status-change times in
// nanoseconds (a rewrite, a touch, a rename over it or a chmod changes one
// of them). A file's identity is taken before it is read, so a change made
// while it is read leaves an identity that no longer matches.
//
// The whole cache file is ignored (and then rewritten) when it cannot be
// read, is larger than MaxLoadCacheBytes, is damaged (its checksum, an
// xxHash64 of everything before it, does not match, or it does not decode),
// names another kind or directory, or was written by another program: the
// identity of the executable that wrote it (its path and file identity) and
// the cudadeps version are part of it, so a rebuilt cudadeps, whose parser
// may differ, parses again. A bad cache file is never an error.
//
// Writes go to a temporary file renamed into place: a concurrent reader sees
// the old file or the new one, never half of one.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_SUPPORT_LOADCACHE_H
#define CUDADEPS_CORE_SUPPORT_LOADCACHE_H

#include "core/support/SharedBytes.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cudadeps {

/// A larger cache file is neither read nor written.
inline constexpr size_t MaxLoadCacheBytes = 256u << 20;

/// What tells one version of a file from another without reading it.
struct FileIdentity {
  uint64_t Device = 0;
  uint64_t Inode = 0;
  uint64_t Size = 0;
  uint64_t ModifiedNs = 0;
  uint64_t ChangedNs = 0;
  bool operator==(const FileIdentity &) const = default;

  template <class C> friend void fields(C &Cd, FileIdentity &X) {
    Cd(X.Device, X.Inode, X.Size, X.ModifiedNs, X.ChangedNs);
  }
};

/// The identity of the regular file at \p Path (symlinks followed), or
/// nullopt when it cannot be stat'ed or is not a regular file.
std::optional<FileIdentity> identifyFile(llvm::StringRef Path);
/// The same for the entry \p Name of the open directory \p DirFd: one
/// path component to look up instead of every component of a full path (a
/// large registry stats thousands of files).
std::optional<FileIdentity> identifyFileAt(int DirFd, llvm::StringRef Name);

/// The running cudadeps as printable text: its version, the real path of
/// its executable and that file's identity ("0.1.0 /usr/bin/cudadeps
/// 2049:1234:113250072:<mtime ns>:<ctime ns>"). The load cache and the probe
/// cache keep it with what they write and use only what this same build
/// wrote (a rebuilt executable at the same path and version parses and
/// probes again). "" when the executable cannot be identified.
const std::string &programIdentity();

/// What one file gave: its name in the directory, its identity when it was
/// parsed, a key the user of the cache chooses (a registry keeps the
/// package's canonical name, to index the directory without decoding) and
/// the encoded result.
struct CachedFile {
  std::string Name;
  FileIdentity Id;
  std::string Key;
  /// A view into the buffer the cache file was read into, when read.
  SharedBytes Blob;

  template <class C> friend void fields(C &Cd, CachedFile &X) {
    Cd(X.Name, X.Id, X.Key, X.Blob);
  }
};

/// The cached state of a directory: each file's entry, and optionally what
/// was derived from all of them together (the knowledge base), valid only
/// while every file of the directory matches its entry.
struct LoadCacheContents {
  std::vector<CachedFile> Files;
  std::string Combined;
};

class LoadCache {
public:
  /// \p CacheDir: the cudadeps cache directory ("" disables the cache);
  /// \p Kind: what is cached ("registry", "knowledge-base"); \p SourceDir:
  /// the directory whose files are cached, as the caller names it (the
  /// cached results may contain that spelling).
  LoadCache(llvm::StringRef CacheDir, llvm::StringRef Kind,
            llvm::StringRef SourceDir);

  bool enabled() const { return !Path.empty(); }
  /// The cache file ("" when disabled).
  const std::string &path() const { return Path; }

  /// The cached contents; empty when there is no usable cache file.
  LoadCacheContents read() const;
  /// Replaces the cache file with \p C. Best effort: a failure is logged
  /// (debug) and otherwise ignored.
  void write(const LoadCacheContents &C) const;

  /// The bytes of a cache file holding \p C, and back (nullopt for bytes
  /// that are not a valid cache file of this program, kind and directory).
  std::string serialize(const LoadCacheContents &C) const;
  std::optional<LoadCacheContents> deserialize(llvm::StringRef Bytes) const;
  /// The same, the entries' blobs kept as views into \p Bytes, which
  /// \p Owner keeps alive (a string, a mapped file).
  std::optional<LoadCacheContents>
  deserialize(std::shared_ptr<const void> Owner, llvm::StringRef Bytes) const;

private:
  std::string Path;
  std::string Kind;
  std::string Source;
};

} // namespace cudadeps

#endif
