//===- ResolveLock.h - resolve --lock FILE and --locked --------------------===//
//
// `--lock FILE` writes the lock of the resolution (core/plan/LockFile.h)
// unless nothing can be built; `--locked` reads the lock (FILE, or
// cudadeps.lock beside the manifest) and reports every difference between
// it and this machine now; any difference is exit 1.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CLI_RESOLVELOCK_H
#define CUDADEPS_CLI_RESOLVELOCK_H

#include "cli/MachineSetup.h"
#include "core/plan/LockFile.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cudadeps::cli {

/// The manifests and knowledge-base files a resolution read, as absolute
/// paths: the main manifest, each resolved package's manifest, then the
/// knowledge base's *.toml.
std::vector<std::string> filesRead(Context &Ctx, Workspace &W,
                                   const Resolution &R);

/// Adds the absolute form of \p Path to \p Out unless it is there.
void addAbsolutePath(std::vector<std::string> &Out, llvm::StringRef Path);

struct LockOutcome {
  std::string File;
  bool Checked = false;            // --locked
  std::vector<std::string> Drift;  // --locked: the differences
  std::optional<bool> Written;     // --lock: whether the file changed
  /// --locked: the commit the lock records for each source build, by
  /// package (what `build --locked` must check out).
  std::map<std::string, std::string> LockedCommits;
  size_t Packages = 0, Facts = 0, Files = 0;
};

/// Carries out --lock/--locked; std::nullopt when neither was given.
/// Errors (an unreadable or malformed lock, a failed write) are input
/// errors.
llvm::Expected<std::optional<LockOutcome>>
applyLockOptions(Context &Ctx, const ParsedOptions &Opts, Workspace &W,
                 const Resolution &R, const Facts &F,
                 llvm::StringRef ManifestPath);

/// The lines that say what the lock step did.
void renderLockText(const LockOutcome &L, llvm::raw_ostream &OS);
llvm::json::Value renderLockJson(const LockOutcome &L);

} // namespace cudadeps::cli

#endif
