//===- nvcc.cpp - fuzz what is read from a CUDA toolkit --------------------===//
//
// `nvcc --version`, `nvcc --list-gpu-code`, crt/host_config.h and
// version.json, through both readers: the nvcc probe's and toolkit
// verification's (core/toolkit/NvccOutput.h). The same bytes go to each:
// the formats share nothing a fuzzer must learn separately.
//
//===----------------------------------------------------------------------===//
#include "FuzzSupport.h"

#include "core/toolkit/NvccOutput.h"
#include "core/version/Version.h"
#include "plugins/nvcc/NvccProbe.h"

using namespace cudadeps;

static void checkVersion(const std::optional<std::string> &V,
                         llvm::StringRef Who) {
  if (!V)
    return;
  llvm::Expected<Version> Parsed = Version::parse(*V);
  if (!Parsed)
    fuzz::fail(Who.str() + " returned a version that does not parse: " +
                   llvm::toString(Parsed.takeError()),
               *V);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Text = fuzz::asText(Data, Size);
  checkVersion(parseNvccVersionOutput(Text), "parseNvccVersionOutput");
  checkVersion(nvcc::parseVersionOutput(Text), "parseVersionOutput");
  (void)nvcc::parseVersionJson(Text);
  (void)nvcc::parseHostConfig(Text);
  for (const std::string &Arch : parseNvccGpuCodeList(Text))
    if (Arch.empty())
      fuzz::fail("parseNvccGpuCodeList returned an empty arch", Text);
  for (const std::string &Arch : nvcc::parseGpuCodeList(Text))
    if (Arch.empty())
      fuzz::fail("parseGpuCodeList returned an empty arch", Text);
  return 0;
}
