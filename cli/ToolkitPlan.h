//===- ToolkitPlan.h - a toolkit install in words -------------------------===//
#ifndef CUDADEPS_CLI_TOOLKITPLAN_H
#define CUDADEPS_CLI_TOOLKITPLAN_H

#include "core/toolkit/ToolkitInstaller.h"

#include <string>

namespace cudadeps::cli {

/// "toolkit 13.0.88 from NVIDIA's wheels on PyPI: nvidia-cuda-nvcc 13.0.88,
/// ... (download about 100 MiB, about 266 MiB on disk)".
std::string describeToolkitPlan(const InstallPlan &P);

/// Where `cudadeps toolkit install` puts toolkits.
std::string toolkitStore();

/// The machine's architecture as NVIDIA's wheels spell it.
std::string toolkitMachineArch();

} // namespace cudadeps::cli

#endif
