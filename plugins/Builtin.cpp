//===- Builtin.cpp - the one explicit list of built-in probes -------------===//

#include "plugins/Builtin.h"

#include "plugins/nvcc/NvccProbe.h"

namespace cudadeps {

llvm::ArrayRef<ProbeFactory> builtinProbes() {
  static const ProbeFactory Factories[] = {
      createNvccProbe,
  };
  return Factories;
}

} // namespace cudadeps
