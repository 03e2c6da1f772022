//===- ProbeCache.h - probe answers cached on disk, fingerprint-checked ---===//
//
// A warm pre-build hook must cost milliseconds, so each probe's answer is
// stored in <dir>/probes/<name>.json together with what it depended on:
//  - the probe's name, version and origin, the cudadeps version and the
//    sysroot it probed;
//  - the value of each environment variable in its EnvInputs (unset is a
//    value too);
//  - a fingerprint of each of its Inputs: real path, type, size and
//    modification time, or "missing" for a path that did not exist;
//  - what each of its Searches found (the search is made again: a $PATH
//    that differs only in directories without such a program is the same);
//  - the names each of its Listings matched, with the directory's
//    fingerprint (while that is unchanged the directory is not read; when
//    it changed but the matching names did not, the entry stays valid and
//    is rewritten with the new fingerprint).
// An entry is used only when all of these are unchanged (like ccache's
// mtime/size compiler check). Answers that depend on nothing the cache can
// check are never cached: there would be nothing to tell when they are
// stale. Errors are never cached, nor are answers in which something timed
// out.
//
// A probe's file keeps up to MaxEntriesPerProbe entries, one per situation
// (the environment values and what the searches found): a shell and a
// process that pyenv started see different python3s, and each finds its own
// entry instead of replacing the other's. An entry stored for the same
// situation replaces the older one.
//
// Entries are written to a temporary file and renamed into place, so a
// reader never sees half an entry; an entry that cannot be read or parsed is
// treated as absent.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_PLUGIN_PROBECACHE_H
#define CUDADEPS_CORE_PLUGIN_PROBECACHE_H

#include "core/plugin/Probe.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <optional>
#include <string>

namespace cudadeps {

/// A larger entry is not read (an answer is a few kilobytes).
inline constexpr size_t MaxCacheEntryBytes = 4u << 20;
/// Entries kept per probe, one per situation (environment values and what
/// the searches found), the most recently stored first.
inline constexpr size_t MaxEntriesPerProbe = 4;

class ProbeCache {
public:
  /// \p Dir is the cudadeps cache directory (entries go to Dir/probes/).
  explicit ProbeCache(std::string Dir) : Dir(std::move(Dir)) {}

  /// $XDG_CACHE_HOME/cudadeps, else $HOME/.cache/cudadeps; "" when neither
  /// variable is set (then nothing is cached).
  static std::string defaultDir(const Environment &Env);

  /// The cached answer of \p P if it is still valid for \p Ctx.
  std::optional<ProbeAnswer> lookup(const Probe &P, const ProbeContext &Ctx) const;

  /// Stores \p A for \p P (a no-op for answers that cannot be cached).
  llvm::Error store(const Probe &P, const ProbeContext &Ctx,
                    const ProbeAnswer &A) const;

  /// The file of \p P's entry.
  std::string entryPath(llvm::StringRef ProbeName) const;

  /// The fingerprint of one input path (exposed for tests and debugging).
  static llvm::json::Value fingerprint(llvm::StringRef Path);

private:
  std::string Dir;
};

} // namespace cudadeps

#endif
