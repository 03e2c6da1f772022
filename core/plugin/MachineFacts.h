//===- MachineFacts.h - what this machine has, the one entry point --------===//
//
// gatherFacts() is what `cudadeps probe`, `resolve` and `build` call. The
// machine is described, in order of precedence, by
//   1. --facts FILE: the whole machine; nothing is probed;
//   2. $CUDADEPS_FACTS=FILE: the same, when --facts is not given;
//   3. otherwise the built-in probes plus the external plugins, run
//      concurrently, answers cached on disk;
// and the --set overrides are applied last, on top of either.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_PLUGIN_MACHINEFACTS_H
#define CUDADEPS_CORE_PLUGIN_MACHINEFACTS_H

#include "core/plugin/PluginLoader.h"
#include "core/plugin/Probe.h"
#include "core/plugin/ProbeRunner.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cudadeps {

/// How long the whole probe phase may take, however many tools hang: every
/// command and plugin is stopped by then.
inline constexpr std::chrono::milliseconds DefaultProbeDeadline{15000};

/// Makes one built-in probe (plugins/Builtin.h lists them).
using ProbeFactory = std::unique_ptr<Probe> (*)();

struct GatherOptions {
  const Environment &Env;
  ProcessRunner &Runner;
  /// --facts FILE. When set (or $CUDADEPS_FACTS is), nothing is probed.
  std::optional<std::string> FactsFile = {};
  /// --set K=V, applied last, in order.
  std::vector<std::string> Overrides = {};
  /// Built-in probes (core does not depend on plugins/: the caller passes
  /// plugins/Builtin.h's list).
  llvm::ArrayRef<ProbeFactory> Builtins = {};
  /// --plugin PATH, in order; $CUDADEPS_PLUGIN_PATH is read from Env.
  std::vector<std::string> PluginPaths = {};
  /// <prefix>/lib/cudadeps/plugins ("" = none).
  std::string InstalledPluginDir = {};
  /// --refresh: probe again even when the cache is valid.
  bool Refresh = false;
  /// "" = ProbeCache::defaultDir(Env); "-" = no cache.
  std::string CacheDir = {};
  std::chrono::milliseconds CommandTimeout = DefaultCommandTimeout;
  /// The whole probe phase's budget (0 = none: only CommandTimeout).
  std::chrono::milliseconds ProbeDeadline = DefaultProbeDeadline;
  std::string SysRoot = {};
};

struct MachineFacts {
  Facts F;
  /// Where the facts came from when nothing was probed: the facts file
  /// (from --facts or $CUDADEPS_FACTS); empty when probed.
  std::string FactsFile;
  /// One per probe that ran, in order: built-ins, then external plugins.
  std::vector<ProbeReport> Reports;
  /// External plugins that could not be used.
  std::vector<PluginLoadFailure> PluginFailures;
  /// The toolkits the facts file or probing had when --set left none
  /// (--set nvcc=): what the override removed.
  std::vector<NvccFacts> NvccsRemoved;
};

/// Describes the machine. Errors are input errors (a facts file that does
/// not parse, a bad --set, an unreadable file: DiagnosticError or a plain
/// message); probe failures are not errors, they are in Reports.
llvm::Expected<MachineFacts> gatherFacts(const GatherOptions &Opts);

/// The probes that would run: the built-ins, then the external plugins (an
/// external plugin with a built-in's name replaces it, keeping its place).
struct ProbeSet {
  std::vector<std::unique_ptr<Probe>> Probes;
  std::vector<PluginLoadFailure> Failures;
};
ProbeSet collectProbes(llvm::ArrayRef<ProbeFactory> Builtins,
                       const PluginSearchPath &Search);

/// Things about \p F that look wrong together, as sentences, e.g. "torch
/// 2.11.0+cu128 was built for CUDA 12.8 but no nvcc 12.x was found (found:
/// 11.8.89 at /usr/local/cuda-11.8/bin/nvcc)".
std::vector<std::string> findInconsistencies(const Facts &F);

} // namespace cudadeps

#endif
