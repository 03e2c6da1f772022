//===- torch.cpp - fuzz what is read from a torch install ------------------===//
//
// torch/version.py, the _GLIBCXX_USE_CXX11_ABI of torch's CMake config,
// METADATA / PKG-INFO headers, *.dist-info directory names and wheel local
// labels ("+cu128").
//
//===----------------------------------------------------------------------===//
#include "FuzzSupport.h"

#include "core/doctor/InstalledDistribution.h"
#include "plugins/cuda-runtime/CudaRuntimeProbe.h"

using namespace cudadeps;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Text = fuzz::asText(Data, Size);
  (void)runtime::parseTorchVersionPy(Text);
  (void)runtime::parseCxx11Abi(Text);
  (void)runtime::parseMetadata(Text);
  llvm::StringRef FirstLine = Text.split('\n').first;
  (void)runtime::parseDistInfoDirName(FirstLine);
  (void)runtime::normalizeDistributionName(FirstLine);
  (void)parseBuildTag(FirstLine);
  (void)wheelLocalLabel(FirstLine);
  return 0;
}
