#include "core/support/FileLock.h"

#include "core/support/Interrupt.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <thread>
#include <unistd.h>

using namespace llvm;

namespace cudadeps {

FileLock &FileLock::operator=(FileLock &&O) noexcept {
  if (this != &O) {
    release();
    FD = O.FD;
    Path = std::move(O.Path);
    O.FD = -1;
  }
  return *this;
}

FileLock::~FileLock() { release(); }

void FileLock::release() {
  if (FD < 0)
    return;
  flock(FD, LOCK_UN);
  close(FD);
  FD = -1;
}

Expected<FileLock> FileLock::acquire(StringRef Path,
                                     function_ref<void()> OnWait) {
  if (std::error_code EC =
          sys::fs::create_directories(sys::path::parent_path(Path)))
    return createStringError(EC, "cannot create the directory of %s: %s",
                             Path.str().c_str(), EC.message().c_str());
  int FD = ::open(Path.str().c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (FD < 0)
    return createStringError(std::error_code(errno, std::generic_category()),
                             "cannot open the lock file %s: %s",
                             Path.str().c_str(), std::strerror(errno));
  FileLock L;
  L.FD = FD;
  L.Path = Path.str();
  bool Told = false;
  auto Pause = std::chrono::milliseconds(5);
  while (flock(FD, LOCK_EX | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK && errno != EINTR)
      return createStringError(std::error_code(errno, std::generic_category()),
                               "cannot lock %s: %s", Path.str().c_str(),
                               std::strerror(errno));
    if (!Told && OnWait) {
      OnWait();
      Told = true;
    }
    if (interruptRequested())
      return makeInterrupted("waiting for the lock " + Path);
    std::this_thread::sleep_for(Pause);
    Pause = std::min(Pause * 2, std::chrono::milliseconds(100));
  }
  return L;
}

} // namespace cudadeps
