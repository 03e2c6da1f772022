//===- tool_output.cpp - fuzz the outputs of host tools --------------------===//
//
// `CXX --version` (the compiler probe) and /proc/meminfo (the platform
// probe).
//
//===----------------------------------------------------------------------===//
#include "FuzzSupport.h"

#include "plugins/compiler/CompilerProbe.h"
#include "plugins/platform/PlatformProbe.h"

#include <cmath>

using namespace cudadeps;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Text = fuzz::asText(Data, Size);
  (void)compiler::familyFromVersionOutput(Text);
  (void)compiler::clangVersionFromOutput(Text);
  (void)compiler::isCompilerName(Text.split('\n').first);
  if (std::optional<double> Gib = platform::memTotalGib(Text))
    if (!std::isfinite(*Gib) || *Gib < 0)
      fuzz::fail("memTotalGib returned a negative or non-finite size", Text);
  return 0;
}
