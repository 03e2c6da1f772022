//===- BoundedFile.h - reading files that others wrote, within limits -----===//
//
// Every file cudadeps reads may be hostile: a FIFO blocks an open() or a
// read() forever, /dev/zero (or a symlink to it) never ends, a huge file
// exhausts memory. readBoundedFile opens without blocking, refuses anything
// but a regular file (after symlinks), refuses a file whose size is over the
// limit before reading it, and never reads more than the limit (files in
// /proc report a size of 0, so the read itself is bounded too).
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_SUPPORT_BOUNDEDFILE_H
#define CUDADEPS_CORE_SUPPORT_BOUNDEDFILE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstddef>
#include <memory>
#include <string>

namespace cudadeps {

/// Why a bounded read failed.
class BoundedReadError : public llvm::ErrorInfo<BoundedReadError> {
public:
  enum class Kind { CannotOpen, NotRegular, TooLarge, ReadFailed };
  static char ID;
  BoundedReadError(Kind K, std::string Message)
      : What(K), Message(std::move(Message)) {}
  Kind kind() const { return What; }
  void log(llvm::raw_ostream &OS) const override { OS << Message; }
  std::error_code convertToErrorCode() const override;

private:
  Kind What;
  std::string Message;
};

/// The contents of the regular file \p Path, at most \p Limit bytes. \p What
/// names the file in messages ("manifest", "facts file"): "cannot read
/// manifest 'x': ...", "manifest 'x' is not a regular file (a FIFO)",
/// "manifest 'x' is too large (N bytes; the limit is M)".
llvm::Expected<std::string> readBoundedFile(llvm::StringRef Path, size_t Limit,
                                            llvm::StringRef What);

/// The first \p Limit bytes of the regular file \p Path (all of it when it
/// is shorter): for probes that look at the start of a file, such as a
/// wrapper script's first line.
llvm::Expected<std::string> readFileHead(llvm::StringRef Path, size_t Limit,
                                         llvm::StringRef What);

/// The last \p Limit bytes of the regular file \p Path (all of it when it
/// is shorter): for logs, whose end says what went wrong.
llvm::Expected<std::string> readFileTail(llvm::StringRef Path, size_t Limit,
                                         llvm::StringRef What);

/// The regular file \p Path, mapped (not copied) when it is large, with the
/// same checks as readBoundedFile: for binaries such as shared objects,
/// which may be hundreds of megabytes.
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
mapBoundedFile(llvm::StringRef Path, size_t Limit, llvm::StringRef What);

/// What kind of file is at \p Path (after symlinks): "a regular file", "a
/// directory", "a FIFO", "a character device", ...; "" when it cannot be
/// examined.
std::string fileKindOf(llvm::StringRef Path);

} // namespace cudadeps

#endif
