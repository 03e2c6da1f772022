#include "core/support/AtomicFile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace cudadeps {

std::error_code writeFileAtomically(StringRef Path, StringRef Bytes) {
  SmallString<256> Temp;
  int FD = -1;
  if (std::error_code EC =
          sys::fs::createUniqueFile(Path + ".tmp-%%%%%%%%", FD, Temp))
    return EC;
  {
    raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Bytes;
    OS.close();
    if (OS.has_error()) {
      std::error_code EC = OS.error();
      OS.clear_error();
      sys::fs::remove(Temp);
      return EC;
    }
  }
  if (std::error_code EC = sys::fs::rename(Temp, Path)) {
    sys::fs::remove(Temp);
    return EC;
  }
  return {};
}

} // namespace cudadeps
