//===- facts_toml.cpp - fuzz facts files (`--facts FILE`) ------------------===//
//
// parseFactsToml() on the input; what it accepts must survive the round trip
// `probe --format toml` relies on: writeFactsToml() of it reads back, and a
// second write of the result is the same text.
//
//===----------------------------------------------------------------------===//
#include "FuzzSupport.h"

#include "core/facts/FactsFile.h"

using namespace cudadeps;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::Expected<Facts> F = parseFactsToml(fuzz::asText(Data, Size), "in.toml");
  Facts *Parsed = fuzz::valueOrNull(F);
  if (!Parsed)
    return 0;
  std::string Written = writeFactsToml(*Parsed);
  llvm::Expected<Facts> Again = parseFactsToml(Written, "out.toml");
  if (!Again)
    fuzz::fail("writeFactsToml() wrote a file that does not read back:\n" +
                   llvm::toString(Again.takeError()),
               Written);
  std::string Rewritten = writeFactsToml(*Again);
  llvm::Expected<Facts> Third = parseFactsToml(Rewritten, "out.toml");
  if (!Third)
    fuzz::fail("the second write does not read back:\n" +
                   llvm::toString(Third.takeError()),
               Rewritten);
  if (writeFactsToml(*Third) != Rewritten)
    fuzz::fail("writing the facts read back from a written file changes it",
               Rewritten);
  return 0;
}
