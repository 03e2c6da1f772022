//===- DriverProbe.h - the "driver" probe: NVIDIA driver and GPUs ---------===//
//
// Three observations, kept distinct because they disagree in real life
// (containers, upgrades without reboot, forward-compat libcuda):
//  - the user-mode driver: libcuda.so.1 queried in an isolated child process
//    (LibcudaQuery.h) -> DriverFacts::Cuda (cuDriverGetVersion, "12.8") and
//    the GPUs with their compute capability;
//  - the kernel module: <SysRoot>/proc/driver/nvidia/version, else
//    <SysRoot>/sys/module/nvidia/version -> DriverFacts::KernelVersion;
//  - nvidia-smi --query-gpu=driver_version,compute_cap,name, only as a last
//    resort when a file gave no kernel version or libcuda gave no answer.
// $CUDADEPS_LIBCUDA names the one library to load instead of libcuda.so.1
// (tests, unusual installs). No driver at all -> not present.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_PLUGINS_DRIVER_DRIVERPROBE_H
#define CUDADEPS_PLUGINS_DRIVER_DRIVERPROBE_H

#include "core/plugin/Probe.h"

#include "llvm/ADT/StringRef.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cudadeps {

std::unique_ptr<Probe> createDriverProbe();

namespace driver {

/// "550.54.14" from /proc/driver/nvidia/version: the first dotted number
/// after "Module" on the NVRM line; nullopt when there is none.
std::optional<std::string> parseProcDriverVersion(llvm::StringRef Text);

struct SmiGpu {
  std::string DriverVersion; // "570.86.15"
  std::string ComputeCap;    // "9.0"; empty when not queried
  std::string Name;
};
/// Lines "570.86.15, 9.0, NVIDIA H100 80GB HBM3" (or without the compute
/// capability when \p WithComputeCap is false).
std::vector<SmiGpu> parseNvidiaSmi(llvm::StringRef Out, bool WithComputeCap);

} // namespace driver
} // namespace cudadeps

#endif
