//===- lock.cpp - fuzz lock files (cudadeps.lock) ---------------------------===//
//
// parseLock() on the input; a lock it accepts is written again and must
// read back to the same text (writeLock is stable).
//
//===----------------------------------------------------------------------===//
#include "FuzzSupport.h"

#include "core/plan/LockFile.h"

using namespace cudadeps;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::Expected<Lock> L = parseLock(fuzz::asText(Data, Size), "cudadeps.lock");
  Lock *Parsed = fuzz::valueOrNull(L);
  if (!Parsed)
    return 0;
  std::string Written = writeLock(*Parsed);
  llvm::Expected<Lock> Again = parseLock(Written, "cudadeps.lock");
  if (!Again)
    fuzz::fail("writeLock() wrote a lock that does not read back:\n" +
                   llvm::toString(Again.takeError()),
               Written);
  if (writeLock(*Again) != Written)
    fuzz::fail("a written lock reads back differently", Written);
  (void)lockDrift(*Parsed, *Again);
  return 0;
}
