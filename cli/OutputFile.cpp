//===- OutputFile.cpp - files cudadeps writes for other tools to read ------===//
#include "cli/OutputFile.h"

#include "core/support/AtomicFile.h"
#include "core/support/BoundedFile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace cudadeps::cli {

namespace {

/// True when Path is a regular file whose content is Text; reads at most
/// Text.size() + 1 bytes.
bool holdsExactly(StringRef Path, StringRef Text) {
  sys::fs::file_status St;
  if (sys::fs::status(Path, St) || !sys::fs::is_regular_file(St) ||
      St.getSize() != Text.size())
    return false;
  // Bounded and regular-file-only: a FIFO swapped in meanwhile does not
  // block, a file grown meanwhile is not read whole.
  Expected<std::string> Old = readBoundedFile(Path, Text.size(), "file");
  if (!Old) {
    consumeError(Old.takeError());
    return false;
  }
  return *Old == Text;
}

Error cannotWrite(StringRef Path, const Twine &Why) {
  return createStringError(inconvertibleErrorCode(),
                           "cannot write " + Path + ": " + Why);
}

} // namespace

Expected<bool> writeFileIfChanged(StringRef Path, StringRef Text) {
  if (holdsExactly(Path, Text))
    return false;
  if (std::error_code EC = writeFileAtomically(Path, Text))
    return cannotWrite(Path, EC.message());
  return true;
}

} // namespace cudadeps::cli
