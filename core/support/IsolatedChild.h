//===- IsolatedChild.h - run untrusted code in a forked child -------------===//
//
// Code that cudadeps does not control -- an external probe plugin, libcuda --
// runs in a forked child, never in cudadeps itself: a crash, a hang, an
// exit() or a flood of output there is a result to report, not the end of
// cudadeps.
//
//  - The child runs in a process group of its own; when the parent is done
//    (answer read, timeout, output cap) it kills the whole group, so
//    anything the code forked (a libcuda that forks, a plugin's helpers)
//    goes with it.
//  - The child's stdin, stdout and stderr are /dev/null (nothing it prints
//    reaches cudadeps' output, and an exit() flushes copied stdio buffers
//    into /dev/null); the answer goes to the pipe on descriptor 3; all other
//    descriptors are closed.
//  - The parent reads at most OutputCap bytes, waits at most Timeout.
//
// Why fork() and not a re-executed helper: the callers live in a library
// that does not know the executable, and fork needs no cooperation from
// main. The caveat of fork() in a multi-threaded process (a lock held by
// another thread at fork time stays locked in the child) is bounded: glibc
// re-initialises malloc's locks in the child, and a deadlocked child is
// killed at the timeout like a hanging one.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_SUPPORT_ISOLATEDCHILD_H
#define CUDADEPS_CORE_SUPPORT_ISOLATEDCHILD_H

#include "llvm/ADT/STLFunctionalExtras.h"

#include <chrono>
#include <cstddef>
#include <string>

namespace cudadeps {

/// The descriptor the child writes its answer to.
inline constexpr int IsolatedAnswerFd = 3;

struct IsolatedOptions {
  std::chrono::milliseconds Timeout{10000};
  size_t OutputCap = 4u << 20;
};

struct IsolatedOutcome {
  enum class Kind {
    Exited,     // exited by itself (ExitCode)
    Signaled,   // died of a signal it did not get from us (Signal)
    TimedOut,   // still running at the timeout: killed
    OverCap,    // wrote more than the cap: killed
    SpawnError, // pipe or fork failed (Error)
  };
  Kind What = Kind::SpawnError;
  int ExitCode = -1;
  int Signal = 0;
  std::string Output; // what it wrote (at most the cap)
  std::string Error;

  /// "crashed with signal 11 (Segmentation fault)", "did not finish within
  /// 2s", "exited with status 7", "wrote more than 4194304 bytes": what went
  /// wrong, for a message that names the culprit first; "" for an exit 0.
  std::string describeFailure(const IsolatedOptions &Opts) const;
};

/// Forks; the child runs \p Child (which writes to IsolatedAnswerFd and
/// returns an exit code; the child then _exit()s with it) -- see the file
/// comment for what the child gets. The parent collects the outcome.
/// \p Child must prepare nothing that allocates after fork where avoidable;
/// everything it needs should be computed before.
IsolatedOutcome runIsolated(llvm::function_ref<int()> Child,
                            const IsolatedOptions &Opts);

/// For the child: writes all of \p Data to IsolatedAnswerFd (false when the
/// pipe is gone).
bool writeAnswer(const char *Data, size_t Size);

} // namespace cudadeps

#endif
