//===- ProbeRunner.h - run every probe concurrently and merge the facts ---===//
//
// Each probe runs on its own thread; answers are merged with mergeFacts() in
// the order of the probe list (not the order they finish), so the result is
// deterministic. A probe that returns an Error is reported (status Error,
// its message naming the probe) and contributes no facts: one broken probe
// never stops the others.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_PLUGIN_PROBERUNNER_H
#define CUDADEPS_CORE_PLUGIN_PROBERUNNER_H

#include "core/plugin/Probe.h"

#include "llvm/ADT/ArrayRef.h"

#include <chrono>
#include <string>
#include <vector>

namespace cudadeps {

class ProbeCache;

/// What one probe did, for `cudadeps probe` and resolve messages.
struct ProbeReport {
  enum class Status { Found, NotPresent, Error };
  std::string Name;
  std::string Version;
  std::string Origin; // "built-in" or the .so path
  Status What = Status::NotPresent;
  /// NotPresent: the probe's reason; Error: the error message.
  std::string Reason;
  std::vector<std::string> Warnings;
  /// What did not finish in its time (a command the probe ran, or the
  /// probe itself): its facts are missing from the result.
  std::vector<ProbeTimeout> TimedOut;
  std::vector<std::string> Searched;
  /// What the answer depends on (ProbeAnswer::Inputs and EnvInputs, with
  /// the directories of its Listings and the variables of its Searches):
  /// the machine's fingerprint, for pre-build hooks that re-run on change.
  std::vector<std::string> Inputs;
  std::vector<std::string> EnvInputs;
  bool FromCache = false;
  std::chrono::milliseconds Elapsed{0};
};

llvm::StringRef statusName(ProbeReport::Status S); // "found", "not-present", "error"

struct ProbeRun {
  Facts Merged;
  std::vector<ProbeReport> Reports; // one per probe, in probe order
};

struct ProbeRunOptions {
  /// nullptr = no caching.
  const ProbeCache *Cache = nullptr;
  /// Ignore cached answers (they are still rewritten).
  bool Refresh = false;
};

/// Runs \p Probes concurrently with \p Ctx (shared by all probes: its
/// Environment and ProcessRunner must be safe to use from several threads).
/// Ctx.Deadline, when set, bounds the whole run: every command a probe runs
/// ends by then.
ProbeRun runProbes(llvm::ArrayRef<Probe *> Probes, const ProbeContext &Ctx,
                   const ProbeRunOptions &Opts = {});

} // namespace cudadeps

#endif
