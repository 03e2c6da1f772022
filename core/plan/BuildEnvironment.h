//===- BuildEnvironment.h - the computed environment of one package's build ===//
//
// What a build of one package runs with, computed from the decision (the
// chosen nvcc, host compiler and archs), the package manifest and the facts,
// never inherited by accident (DESIGN.md section 8):
//
//   CUDA_HOME, CUDA_PATH      the chosen toolkit's root
//   PATH                      <toolkit>/bin first (prepended to the caller's)
//   CC, CXX, CUDAHOSTCXX,     the chosen host compiler (CC is its C driver
//   NVCC_CCBIN                when one sits next to it, else the C++ one)
//   TORCH_CUDA_ARCH_LIST      "9.0;12.0" (torch's cpp_extension)
//   CUDAARCHS                 "90;120" (CMake's CMAKE_CUDA_ARCHITECTURES)
//   MAX_JOBS                  min(CPUs, memory / memory_per_job_gib), >= 1;
//   CMAKE_BUILD_PARALLEL_LEVEL  the same, for cmake --build
//   launcher variables        CMAKE_<LANG>_COMPILER_LAUNCHER (cmake) or
//                             PYTORCH_NVCC="<launcher> <nvcc>" (torch)
//   the package's [build.env] knobs, templated ({arch_numbers} gives bare
//                             numbers such as FLASH_ATTN_CUDA_ARCHS reads,
//                             {gencode} -gencode lists, ...)
//
// Precedence, lowest first: computed values, the package's [build.env], the
// user's choices (--jobs, explicit overrides). Each variable says where its
// value came from, so `--dry-run` and `--emit env` can show it.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_PLAN_BUILDENVIRONMENT_H
#define CUDADEPS_CORE_PLAN_BUILDENVIRONMENT_H

#include "core/facts/Facts.h"
#include "core/manifest/Manifest.h"
#include "core/plan/Resolution.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cudadeps {

/// One variable of a build's environment.
struct BuildVar {
  std::string Name;
  std::string Value;
  /// Where the value came from: "computed from the chosen nvcc",
  /// "[build.env] at m.toml:12:1", "--jobs", "override".
  std::string Origin;
  /// PATH-like: Value goes in front of the inherited value, ':'-separated.
  bool Prepend = false;
};

/// Memory one compile job is assumed to need when the manifest's [build]
/// has no memory_per_job_gib.
inline constexpr double DefaultMemoryPerJobGib = 2.0;

struct BuildEnvironmentOptions {
  /// --jobs N: replaces the computed MAX_JOBS.
  std::optional<unsigned> Jobs;
  /// The compiler launcher (path to ccache or sccache); empty = none.
  std::string Launcher;
  /// {src} and {out}; empty = not known yet (a template using them fails).
  std::string SrcDir;
  std::string OutDir;
  /// NAME=VALUE the user set; they win over everything else.
  std::map<std::string, std::string> Overrides;
};

/// How MAX_JOBS was sized.
struct JobsDecision {
  unsigned Jobs = 1;
  /// "4 CPUs, 31.2 GiB memory / 9 GiB per job", "--jobs 3".
  std::string Reason;
};

/// min(CPUs, floor(memory / per job)), at least 1; an unknown CPU count or
/// memory size does not limit.
JobsDecision sizeJobs(std::optional<unsigned> Cpus,
                      std::optional<double> MemoryGib, double PerJobGib);

struct BuildEnvironment {
  /// In a stable order: computed variables first, then the package's knobs
  /// by name; a later layer replaces the value (and origin) in place.
  std::vector<BuildVar> Vars;
  JobsDecision Jobs;
  /// The template values known for this build ({version}, {nvcc}, ...).
  std::map<std::string, std::string> Placeholders;

  const BuildVar *find(llvm::StringRef Name) const;
  /// The full environment of a child: \p Base with Vars applied.
  std::map<std::string, std::string>
  applyTo(std::map<std::string, std::string> Base) const;
  /// Expands a manifest template with Placeholders.
  llvm::Expected<std::string> expand(llvm::StringRef Template) const;
};

/// Computes the environment for building \p PR (a source decision) of
/// \p Pkg on the machine \p F. Fails when a [build.env] template uses a
/// placeholder with no value here, with the template's file:line:col.
llvm::Expected<BuildEnvironment>
computeBuildEnvironment(const Package &Pkg, const PackageResolution &PR,
                        const Facts &F, const BuildEnvironmentOptions &Opts);

/// Arch lists in the forms packages read, from "sm_90", "sm_90a", ...:
/// "9.0;9.0a" (TORCH_CUDA_ARCH_LIST)
std::string torchArchList(llvm::ArrayRef<std::string> Archs);
/// "90;90a" (FLASH_ATTN_CUDA_ARCHS, CMAKE_CUDA_ARCHITECTURES)
std::string archNumbers(llvm::ArrayRef<std::string> Archs);
/// "-gencode arch=compute_90,code=sm_90 ..." (nvcc flags)
std::string gencodeFlags(llvm::ArrayRef<std::string> Archs);

/// The toolkit root of an nvcc: /usr/local/cuda-12.8 for
/// /usr/local/cuda-12.8/bin/nvcc.
std::string toolkitRoot(llvm::StringRef NvccPath);

} // namespace cudadeps

#endif
