//===- plugin_answer.cpp - fuzz the JSON answers of external plugins -------===//
//
// parsePluginAnswer() reads what an external probe plugin's callback
// returned (the plugin runs in an isolated child; its text is the input).
//
//===----------------------------------------------------------------------===//
#include "FuzzSupport.h"

#include "core/plugin/PluginLoader.h"

using namespace cudadeps;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::Expected<ProbeAnswer> A = parsePluginAnswer(
      fuzz::asText(Data, Size), "fuzz", "/fuzz/libfuzz-probe.so");
  if (ProbeAnswer *Parsed = fuzz::valueOrNull(A))
    if (Parsed->Inputs.empty() || Parsed->Inputs.back() != "/fuzz/libfuzz-probe.so")
      fuzz::fail("the plugin file is not an input of its answer", "");
  return 0;
}
