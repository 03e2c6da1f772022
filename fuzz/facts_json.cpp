//===- facts_json.cpp - fuzz the JSON form of facts ------------------------===//
//
// factsFromJsonText() reads `--format json` facts and, through
// factsFromJson(), plugin answers and probe-cache entries. What it accepts
// must round-trip: factsFromJson(factsToJson(F)) == F, sources included.
//
//===----------------------------------------------------------------------===//
#include "FuzzSupport.h"

#include "core/facts/FactsFile.h"

#include "llvm/Support/raw_ostream.h"

using namespace cudadeps;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  Source Default = Source::probed("fuzz", "/fuzz/plugin.so");
  llvm::Expected<Facts> F =
      factsFromJsonText(fuzz::asText(Data, Size), "in.json", Default);
  Facts *Parsed = fuzz::valueOrNull(F);
  if (!Parsed)
    return 0;
  llvm::json::Value J = factsToJson(*Parsed);
  std::string Text;
  llvm::raw_string_ostream(Text) << J;
  llvm::Expected<Facts> Again = factsFromJson(J, "out.json", Default);
  if (!Again)
    fuzz::fail("factsToJson() wrote facts that do not read back:\n" +
                   llvm::toString(Again.takeError()),
               Text);
  if (!(*Again == *Parsed))
    fuzz::fail("factsFromJson(factsToJson(F)) differs from F", Text);
  return 0;
}
