//===- NvccProbe.h - the "nvcc" probe: every CUDA toolkit on the machine --===//
//
// Finds every toolkit, in the order a build would prefer it (the order of
// PyTorch's cpp_extension, so the first entry is the one torch would use):
// $CUDA_HOME, $CUDA_PATH, each nvcc on $PATH, /usr/local/cuda,
// /usr/local/cuda-*, /opt/cuda*, $CONDA_PREFIX and NVIDIA's pip wheels
// (site-packages/nvidia/cu13/bin/nvcc, nvidia/cuda_nvcc/bin/nvcc) in the
// Python environments found by reading the file system. Toolkits are
// de-duplicated by the real path of nvcc -- a small wrapper script that execs
// another nvcc (/usr/local/bin/nvcc, Debian's /usr/bin/nvcc) counts as the
// nvcc it runs, and its toolkit files are read from there; the first spelling
// is kept. Fixed
// system paths are read under ProbeContext::SysRoot; paths from the
// environment are used as given.
//
// For each toolkit: the version from version.json's cuda_nvcc entry, else
// from `nvcc --version`; the host-compiler limits from the toolkit's own
// crt/host_config.h; the sm_XX targets from `nvcc --list-gpu-code`. Every
// command runs with ProbeContext::CommandTimeout: a toolkit whose version
// cannot be learnt in time is skipped with a warning.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_PLUGINS_NVCC_NVCCPROBE_H
#define CUDADEPS_PLUGINS_NVCC_NVCCPROBE_H

#include "core/plugin/Probe.h"

#include "llvm/ADT/StringRef.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cudadeps {

std::unique_ptr<Probe> createNvccProbe();

namespace nvcc {

/// "13.0.88" from `nvcc --version` ("Cuda compilation tools, release 13.0,
/// V13.0.88"); "13.0" when only the release is printed; nullopt otherwise.
std::optional<std::string> parseVersionOutput(llvm::StringRef Out);

/// cuda_nvcc.version from a toolkit's version.json; nullopt when absent.
std::optional<std::string> parseVersionJson(llvm::StringRef Json);

struct HostCompilerLimits {
  std::optional<unsigned> MaxGcc;   // `#if __GNUC__ > 15` -> 15
  std::optional<unsigned> MaxClang; // `#if (__clang_major__ >= 21) ...` -> 20
};
/// The limits crt/host_config.h enforces: the condition guarding
/// "unsupported GNU version!" and "unsupported clang version!" (the HOS and
/// Grace clang variants are ignored), else the first such condition.
HostCompilerLimits parseHostConfig(llvm::StringRef Header);

/// The sm_XX lines of `nvcc --list-gpu-code`, in nvcc's order.
std::vector<std::string> parseGpuCodeList(llvm::StringRef Out);

} // namespace nvcc
} // namespace cudadeps

#endif
