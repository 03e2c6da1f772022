//===- knowledge_base.cpp - fuzz knowledge-base files (manifests/cuda) -----===//
//
// KnowledgeBase::addFile() reads one table file; the queries the resolver
// makes then run over whatever rows it accepted.
//
//===----------------------------------------------------------------------===//
#include "FuzzSupport.h"

#include "core/manifest/KnowledgeBase.h"

using namespace cudadeps;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  KnowledgeBase KB;
  llvm::Error E = KB.addFile(fuzz::asText(Data, Size), "/fuzz/toolkits.toml");
  if (E) {
    fuzz::consume(std::move(E));
    return 0;
  }
  for (const char *Arch : {"sm_90", "sm_90a", "sm_100f", "sm_120", "compute_80"})
    (void)KB.nvccRangeForArch(Arch).str();
  (void)KB.knownRange().str();
  for (uint64_t Major : {11u, 12u, 13u})
    (void)KB.driverFloor(Major);
  for (std::vector<uint64_t> R : {std::vector<uint64_t>{12, 8, 93},
                                  std::vector<uint64_t>{13, 0},
                                  std::vector<uint64_t>{2, 8}}) {
    (void)KB.toolkit(Version(R));
    (void)KB.torchRow(Version(R));
  }
  return 0;
}
