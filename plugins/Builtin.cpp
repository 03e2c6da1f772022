//===- Builtin.cpp - the one explicit list of built-in probes -------------===//

#include "plugins/Builtin.h"

#include "plugins/compiler/CompilerProbe.h"
#include "plugins/cuda-runtime/CudaRuntimeProbe.h"
#include "plugins/driver/DriverProbe.h"
#include "plugins/nvcc/NvccProbe.h"
#include "plugins/platform/PlatformProbe.h"

namespace cudadeps {

llvm::ArrayRef<ProbeFactory> builtinProbes() {
  static const ProbeFactory Factories[] = {
      createNvccProbe,     createCompilerProbe, createCudaRuntimeProbe,
      createDriverProbe,   createPlatformProbe,
  };
  return Factories;
}

} // namespace cudadeps
