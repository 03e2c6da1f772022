//===- shared_object.cpp - fuzz ELF files and their fatbinaries ------------===//
//
// readSharedObject() reads torch/lib/libc10.so (its C++ ABI), built
// extensions and cudart (doctor, build verification) -- any ELF a user's
// environment holds. The input is written to a temporary file and read with
// every part; parseFatbin() also gets the raw bytes, as if they were a
// .nv_fatbin section.
//
//===----------------------------------------------------------------------===//
#include "FuzzSupport.h"

#include "core/inspect/Fatbin.h"
#include "core/inspect/SharedObject.h"
#include "plugins/cuda-runtime/CudaRuntimeProbe.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

using namespace cudadeps;

static std::string &objectPath() {
  static std::string Path;
  return Path;
}

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  llvm::SmallString<128> Path;
  if (std::error_code EC =
          llvm::sys::fs::createTemporaryFile("cudadeps-fuzz", "so", Path))
    fuzz::fail("cannot create a temporary file", EC.message());
  objectPath() = std::string(Path);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Bytes = fuzz::asText(Data, Size);
  llvm::Expected<std::vector<FatbinEntry>> Entries = parseFatbin(Bytes);
  if (std::vector<FatbinEntry> *E = fuzz::valueOrNull(Entries))
    for (unsigned Gpu : {75u, 80u, 90u, 120u})
      (void)fitForGpu(*E, Gpu);
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(objectPath(), EC);
    if (EC)
      fuzz::fail("cannot write the object", EC.message());
    OS << Bytes;
  }
  llvm::Expected<SharedObject> SO =
      readSharedObject(objectPath(), ReadExports | ReadDeviceCode);
  if (SharedObject *Read = fuzz::valueOrNull(SO)) {
    (void)runtime::cxx11AbiOfSymbols(Read->Undefined, Read->Exported);
    for (const std::string &Name : Read->Exported)
      (void)outerNamespace(Name);
  }
  return 0;
}
