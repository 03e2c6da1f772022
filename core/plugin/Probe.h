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
#include "core/support/Process.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <chrono>
#include <memory>
#include <string>
#include <vector>

namespace cudadeps {

/// What a probe may use. Tests pass fakes.
struct ProbeContext {
  const Environment &Env;
  ProcessRunner &Runner;
  /// Per external command.
  std::chrono::milliseconds CommandTimeout{10000};
  /// Root prepended to absolute system paths (/proc, /sys, /usr/local, ...)
  /// so tests can point probes at a fake file system tree; "" = real root.
  std::string SysRoot;
};

struct ProbeAnswer {
  enum class Kind { Found, NotPresent };
  Kind What = Kind::NotPresent;
  Facts Found;                       // only the parts this probe knows
  std::string NotPresentReason;      // "no nvcc found"
  std::vector<std::string> Searched; // what was looked at, for messages
  std::vector<std::string> Warnings; // e.g. "nvcc --version timed out after 10s"
  /// Files and directories the answer depends on: the probe cache
  /// fingerprints them (real path, size, mtime) to decide if it is stale.
  std::vector<std::string> Inputs;
  /// Environment variables the answer depends on (their values join the key).
  std::vector<std::string> EnvInputs;

  static ProbeAnswer notPresent(std::string Reason,
                                std::vector<std::string> Searched = {}) {
    ProbeAnswer A;
    A.NotPresentReason = std::move(Reason);
    A.Searched = std::move(Searched);
    return A;
  }
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
};

} // namespace cudadeps

#endif
