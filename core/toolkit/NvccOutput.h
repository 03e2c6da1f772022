//===- NvccOutput.h - what nvcc prints about itself ------------------------===//
//
// The nvcc probe and toolkit verification read the same two outputs:
// `nvcc --version` and `nvcc --list-gpu-code`.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_TOOLKIT_NVCCOUTPUT_H
#define CUDADEPS_CORE_TOOLKIT_NVCCOUTPUT_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace cudadeps {

/// "13.0.88" from `nvcc --version` ("Cuda compilation tools, release 13.0,
/// V13.0.88"); "13.0" when only the release is printed; nullopt otherwise.
std::optional<std::string> parseNvccVersionOutput(llvm::StringRef Out);

/// The sm_XX lines of `nvcc --list-gpu-code`, in nvcc's order.
std::vector<std::string> parseNvccGpuCodeList(llvm::StringRef Out);

} // namespace cudadeps

#endif
