//===- HostFiles.h - small file-system helpers shared by the probes -------===//
//
// The built-in probes read the machine mostly through files: toolkit
// layouts, headers, /proc, site-packages. These helpers keep that reading in
// one place: SysRoot handling, bounded reads, real paths and directory
// listings that never throw and never fail loudly (a missing file is simply
// absent). runTool runs the probes' external tools the same way.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_PLUGINS_PLATFORM_HOSTFILES_H
#define CUDADEPS_PLUGINS_PLATFORM_HOSTFILES_H

#include "core/plugin/Probe.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace cudadeps::probes {

/// \p AbsPath ("/usr/local/cuda") under \p SysRoot ("" = the real root).
std::string underRoot(llvm::StringRef SysRoot, llvm::StringRef AbsPath);

/// A + "/" + B ... (empty parts are skipped).
std::string joinPath(llvm::StringRef A, llvm::StringRef B,
                     llvm::StringRef C = "", llvm::StringRef D = "",
                     llvm::StringRef E = "");

/// The file (its first \p Limit bytes); nullopt when it cannot be read or
/// is not a regular file (a FIFO would block, /dev/zero never ends).
std::optional<std::string> readTextFile(llvm::StringRef Path,
                                        size_t Limit = 4 << 20);

/// The canonical path with symlinks resolved; "" when it does not exist.
std::string realPathOf(llvm::StringRef Path);

bool isDirectory(llvm::StringRef Path);
bool isRegularFile(llvm::StringRef Path);
/// A regular file (after symlinks) that the current user may execute.
bool isExecutableFile(llvm::StringRef Path);

/// The names of the entries of \p Dir, sorted; empty when it is unreadable.
std::vector<std::string> listDirectory(llvm::StringRef Dir);

/// The non-empty entries of a colon-separated list such as $PATH.
std::vector<std::string> splitSearchPath(llvm::StringRef List);

/// Every executable \p Name in the directories of \p SearchPath, in order
/// (spelled as found: directory + name, symlinks kept).
std::vector<std::string> findAllInSearchPath(llvm::StringRef Name,
                                             llvm::StringRef SearchPath);
/// The first of them, "" when there is none.
std::string findInSearchPath(llvm::StringRef Name, llvm::StringRef SearchPath);

/// Every executable \p Name in the directories of $\p Variable, as
/// findAllInSearchPath, with the search added to \p Searches: a cached
/// answer is checked by searching again, so a directory added to $PATH
/// that holds no \p Name leaves it valid.
std::vector<std::string> searchPath(const Environment &Env,
                                    llvm::StringRef Variable,
                                    llvm::StringRef Name,
                                    std::vector<PathSearch> &Searches);
/// The same for every executable whose name matches \p Pattern (an
/// extended regular expression), sorted by name within a directory.
std::vector<std::string> searchPathMatching(const Environment &Env,
                                            llvm::StringRef Variable,
                                            llvm::StringRef Pattern,
                                            std::vector<PathSearch> &Searches);

/// The names in \p Dir that match \p Pattern ("" = every name), sorted,
/// added to Answer.Listings: the answer depends on those names only, not on
/// other files created in \p Dir.
std::vector<std::string> listDirectoryMatching(llvm::StringRef Dir,
                                               llvm::StringRef Pattern,
                                               ProbeAnswer &Answer);

/// "1s", "1.5s", "10s": how timeouts are written in warnings.
std::string formatSeconds(std::chrono::milliseconds Duration);

/// Runs \p Argv for a probe, with the context's environment and command
/// timeout. When it cannot be started or times out, adds a warning that
/// begins with \p What ("nvcc --version") to \p Answer and returns nullopt;
/// otherwise returns the result whatever its exit code.
std::optional<ProcessResult> runTool(const ProbeContext &Ctx,
                                     std::vector<std::string> Argv,
                                     llvm::StringRef What, ProbeAnswer &Answer);

/// A "not present" answer for \p Reason that keeps what \p Answer searched,
/// warned about and depends on (its facts are dropped).
ProbeAnswer notPresentKeeping(ProbeAnswer &&Answer, std::string Reason);

/// Calls \p Fn(0) ... \p Fn(Count - 1), each on a thread of its own, at
/// most \p MaxParallel at a time: tools that are asked one question each
/// (nvcc, compilers) cost the slowest of them, not their sum.
void runInParallel(size_t Count, llvm::function_ref<void(size_t)> Fn,
                   size_t MaxParallel = 8);

/// Appends what \p Notes (one parallel task's answer) warned about, depends
/// on and timed out in to \p Answer.
void mergeNotes(ProbeAnswer &Answer, ProbeAnswer &&Notes);

/// Describe(*Items[I], Notes) -> std::optional<Fact> for every item, in
/// parallel (runInParallel); each one's notes are merged into \p Answer and
/// the facts found returned, both in the items' order.
template <typename Fact, typename Item, typename Fn>
std::vector<Fact> describeInParallel(const std::vector<const Item *> &Items,
                                     ProbeAnswer &Answer, Fn Describe) {
  struct Described {
    ProbeAnswer Notes;
    std::optional<Fact> Found;
  };
  std::vector<Described> Results(Items.size());
  runInParallel(Items.size(), [&](size_t I) {
    Results[I].Found = Describe(*Items[I], Results[I].Notes);
  });
  std::vector<Fact> Facts;
  for (Described &D : Results) {
    mergeNotes(Answer, std::move(D.Notes));
    if (D.Found)
      Facts.push_back(std::move(*D.Found));
  }
  return Facts;
}

/// Appends \p Item to \p List unless it is already there.
void appendUnique(std::vector<std::string> &List, std::string Item);

} // namespace cudadeps::probes

#endif
