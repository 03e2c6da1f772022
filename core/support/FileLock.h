//===- FileLock.h - an exclusive advisory lock on a file -------------------===//
//
// flock(2) on a lock file: held until the FileLock is destroyed or the
// process dies (the kernel releases it on SIGKILL too, so a killed cudadeps
// never leaves a cache locked). Waiting polls so that an interrupt
// (core/support/Interrupt.h) stops it.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_SUPPORT_FILELOCK_H
#define CUDADEPS_CORE_SUPPORT_FILELOCK_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace cudadeps {

class FileLock {
public:
  FileLock() = default;
  FileLock(FileLock &&O) noexcept : FD(O.FD), Path(std::move(O.Path)) {
    O.FD = -1;
  }
  FileLock &operator=(FileLock &&O) noexcept;
  FileLock(const FileLock &) = delete;
  FileLock &operator=(const FileLock &) = delete;
  ~FileLock();

  /// Locks \p Path (created with its parent directories when missing),
  /// waiting while another process holds it; \p OnWait is called once when
  /// the lock is busy.
  static llvm::Expected<FileLock>
  acquire(llvm::StringRef Path, llvm::function_ref<void()> OnWait = {});

  bool held() const { return FD >= 0; }
  void release();

private:
  int FD = -1;
  std::string Path;
};

} // namespace cudadeps

#endif
