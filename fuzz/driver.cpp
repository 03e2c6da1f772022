//===- driver.cpp - fuzz what is read about the NVIDIA driver --------------===//
//
// /proc/driver/nvidia/version, `nvidia-smi --query-gpu` output (with and
// without the compute capability) and the report the libcuda child writes.
//
//===----------------------------------------------------------------------===//
#include "FuzzSupport.h"

#include "plugins/driver/DriverProbe.h"
#include "plugins/driver/LibcudaQuery.h"

using namespace cudadeps;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Text = fuzz::asText(Data, Size);
  (void)driver::parseProcDriverVersion(Text);
  (void)driver::parseNvidiaSmi(Text, true);
  (void)driver::parseNvidiaSmi(Text, false);
  driver::LibcudaReport R = driver::parseLibcudaReport(Text);
  if (R.Gpus.size() > Text.size())
    fuzz::fail("more GPUs than bytes in the report", Text);
  return 0;
}
