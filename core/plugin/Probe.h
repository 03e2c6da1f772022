//===- Probe.h - the probe interface every plugin implements ---------------===//
//
// A probe looks at one aspect of the machine (toolkits, compilers, the CUDA
// runtime in Python environments, the driver and GPUs, the platform) and
// answers one of three things, like Bear's recognizers: facts ("mine"),
// not present here ("not mine"), or an Error ("mine but broken").
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_PLUGIN_PROBE_H
#define CUDADEPS_CORE_PLUGIN_PROBE_H

#include "core/facts/Facts.h"
#include "core/plugin/ProbeInputs.h"
#include "core/support/Process.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cudadeps {

/// What one command a probe runs may take unless told otherwise.
inline constexpr std::chrono::milliseconds DefaultCommandTimeout{10000};

/// What a probe may use. Tests pass fakes.
struct ProbeContext {
  const Environment &Env;
  ProcessRunner &Runner;
  /// Per external command.
  std::chrono::milliseconds CommandTimeout = DefaultCommandTimeout;
  /// Root prepended to absolute system paths (/proc, /sys, /usr/local, ...)
  /// so tests can point probes at a fake file system tree; "" = real root.
  std::string SysRoot = {};
  /// The end of the whole probe phase: nothing a probe runs lasts past it
  /// (nullopt = each command has only its own timeout).
  std::optional<std::chrono::steady_clock::time_point> Deadline{};

  /// What one command may take now: CommandTimeout, or less when the probe
  /// phase's deadline is nearer (zero once it has passed).
  std::chrono::milliseconds timeLeftFor(std::chrono::milliseconds Want) const {
    if (!Deadline)
      return Want;
    auto Left = std::chrono::duration_cast<std::chrono::milliseconds>(
        *Deadline - std::chrono::steady_clock::now());
    if (Left.count() <= 0)
      return std::chrono::milliseconds(0);
    return std::min(Want, Left);
  }
};

/// Something a probe ran that did not finish in its time: a command, or an
/// external plugin itself.
struct ProbeTimeout {
  std::string What;                   // "/opt/cuda/bin/nvcc --version"
  std::chrono::milliseconds After{0}; // how long it was given
};

struct ProbeAnswer {
  enum class Kind { Found, NotPresent };
  Kind What = Kind::NotPresent;
  Facts Found;                       // only the parts this probe knows
  std::string NotPresentReason;      // "no nvcc found"
  std::vector<std::string> Searched; // what was looked at, for messages
  std::vector<std::string> Warnings; // e.g. "nvcc --version timed out after 10s"
  /// What timed out (each also has a warning). An answer with a timeout is
  /// never cached: the next run asks again.
  std::vector<ProbeTimeout> TimedOut;
  /// Files and directories the answer depends on: the probe cache
  /// fingerprints them (real path, size, mtime) to decide if it is stale.
  std::vector<std::string> Inputs;
  /// Environment variables the answer depends on (their values join the key).
  std::vector<std::string> EnvInputs;
  /// Searches of $PATH-like variables whose results the answer depends on:
  /// the cache repeats them instead of comparing the variable's text.
  std::vector<PathSearch> Searches;
  /// Directories whose matching entries the answer depends on: the cache
  /// compares those names, not the directory's modification time.
  std::vector<DirListing> Listings;

  static ProbeAnswer notPresent(std::string Reason,
                                std::vector<std::string> Searched = {}) {
    ProbeAnswer A;
    A.NotPresentReason = std::move(Reason);
    A.Searched = std::move(Searched);
    return A;
  }
};

/// The error of a probe that itself did not finish in its time (an
/// external plugin's isolated child killed at its timeout).
class ProbeTimeoutError : public llvm::ErrorInfo<ProbeTimeoutError> {
public:
  static char ID;
  ProbeTimeoutError(std::string Message, ProbeTimeout T)
      : Message(std::move(Message)), Timeout(std::move(T)) {}
  void log(llvm::raw_ostream &OS) const override { OS << Message; }
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }
  const ProbeTimeout &timeout() const { return Timeout; }

private:
  std::string Message;
  ProbeTimeout Timeout;
};

class Probe {
public:
  virtual ~Probe() = default;
  /// kebab-case plugin name: "nvcc", "cuda-runtime", "compiler", "driver".
  virtual llvm::StringRef name() const = 0;
  virtual llvm::StringRef version() const = 0;
  /// Where it came from: "built-in" or the .so path.
  virtual std::string origin() const { return "built-in"; }
  virtual llvm::Expected<ProbeAnswer> probe(const ProbeContext &Ctx) = 0;
  /// True when the probe runs code in a forked child that does not exec (a
  /// plugin, libcuda): runProbes then runs it on the calling thread before
  /// any probe thread starts. A child forked while other threads run inherits
  /// whatever lock one of them held at that instant (the allocator's, the
  /// loader's) and may hang on it: after fork() in a multithreaded process
  /// only async-signal-safe work is allowed.
  virtual bool forksChildren() const { return false; }
};

} // namespace cudadeps

#endif
