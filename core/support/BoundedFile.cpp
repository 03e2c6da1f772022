//===- BoundedFile.cpp - reading files that others wrote, within limits ---===//

#include "core/support/BoundedFile.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace llvm;

namespace cudadeps {

char BoundedReadError::ID = 0;

std::error_code BoundedReadError::convertToErrorCode() const {
  return inconvertibleErrorCode();
}

static const char *kindOfMode(mode_t Mode) {
  if (S_ISREG(Mode))
    return "a regular file";
  if (S_ISDIR(Mode))
    return "a directory";
  if (S_ISFIFO(Mode))
    return "a FIFO";
  if (S_ISCHR(Mode))
    return "a character device";
  if (S_ISBLK(Mode))
    return "a block device";
  if (S_ISSOCK(Mode))
    return "a socket";
  return "not a regular file";
}

std::string fileKindOf(StringRef Path) {
  struct stat St;
  if (::stat(Path.str().c_str(), &St) != 0)
    return {};
  return kindOfMode(St.st_mode);
}

static Error fail(BoundedReadError::Kind K, const Twine &Message) {
  return make_error<BoundedReadError>(K, Message.str());
}

static Error tooLarge(StringRef Path, StringRef What, uint64_t Size,
                      size_t Limit, bool AtLeast) {
  return fail(BoundedReadError::Kind::TooLarge,
              What + " '" + Path + "' is too large (" +
                  (AtLeast ? "more than " : "") + Twine(Size) +
                  " bytes; the limit is " + Twine(uint64_t(Limit)) + ")");
}

namespace {
/// A descriptor closed when it goes out of scope.
struct FdCloser {
  int Fd = -1;
  ~FdCloser() {
    if (Fd >= 0)
      ::close(Fd);
  }
};
} // namespace

/// Opens \p Path without blocking and checks that it is a regular file
/// (after symlinks) no larger than \p Limit unless \p Truncate; leaves the
/// descriptor in \p Out (blocking again) and its status in \p St.
static Error openRegular(StringRef Path, size_t Limit, StringRef What,
                         bool Truncate, FdCloser &Out, struct stat &St) {
  std::string P = Path.str();
  // O_NONBLOCK: opening a FIFO for reading does not wait for a writer.
  Out.Fd = ::open(P.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (Out.Fd < 0 || ::fstat(Out.Fd, &St) != 0)
    return fail(BoundedReadError::Kind::CannotOpen,
                "cannot read " + What + " '" + Path + "': " +
                    std::strerror(errno));
  if (!S_ISREG(St.st_mode))
    return fail(BoundedReadError::Kind::NotRegular,
                What + " '" + Path + "' is " + kindOfMode(St.st_mode) +
                    ", not a regular file");
  if (!Truncate && St.st_size > 0 && static_cast<uint64_t>(St.st_size) > Limit)
    return tooLarge(Path, What, static_cast<uint64_t>(St.st_size), Limit,
                    false);
  // A regular file does not block; clear the flag for files in /proc and
  // /sys that may behave otherwise.
  ::fcntl(Out.Fd, F_SETFL, ::fcntl(Out.Fd, F_GETFL) & ~O_NONBLOCK);
  return Error::success();
}

static Expected<std::string> readRegular(StringRef Path, size_t Limit,
                                         StringRef What, bool Truncate) {
  FdCloser Closer;
  struct stat St;
  if (Error E = openRegular(Path, Limit, What, Truncate, Closer, St))
    return E;
  int Fd = Closer.Fd;
  // Read straight into the result (no copy from a chunk: a load cache file
  // is megabytes): sized from the file's size and one byte more, to see
  // that it ends there, and grown for a file that grows meanwhile.
  size_t Room = std::min(Limit, SIZE_MAX - 1);
  size_t Guess = St.st_size > 0 ? static_cast<size_t>(St.st_size) : 4096;
  std::string Text(std::min(Room, Guess) + 1, '\0');
  size_t Got = 0;
  while (true) {
    if (Got == Text.size()) {
      if (Got > Room) { // more than Limit bytes
        if (!Truncate)
          return tooLarge(Path, What, Limit, Limit, true);
        Got = Room;
        break;
      }
      Text.resize(std::min(Room + 1, 2 * Text.size()));
    }
    ssize_t N = ::read(Fd, Text.data() + Got, Text.size() - Got);
    if (N < 0 && errno == EINTR)
      continue;
    if (N < 0)
      return fail(BoundedReadError::Kind::ReadFailed,
                  "cannot read " + What + " '" + Path + "': " +
                      std::strerror(errno));
    if (N == 0)
      break;
    Got += static_cast<size_t>(N);
  }
  Text.resize(Got);
  return Text;
}

Expected<std::string> readFileTail(StringRef Path, size_t Limit,
                                   StringRef What) {
  FdCloser Closer;
  struct stat St;
  if (Error E = openRegular(Path, Limit, What, /*Truncate=*/true, Closer, St))
    return E;
  if (St.st_size > 0 && static_cast<uint64_t>(St.st_size) > Limit)
    ::lseek(Closer.Fd, St.st_size - static_cast<off_t>(Limit), SEEK_SET);
  std::string Text;
  char Chunk[16384];
  while (true) {
    ssize_t N = ::read(Closer.Fd, Chunk, sizeof(Chunk));
    if (N < 0 && errno == EINTR)
      continue;
    if (N < 0)
      return fail(BoundedReadError::Kind::ReadFailed,
                  "cannot read " + What + " '" + Path +
                      "': " + std::strerror(errno));
    if (N == 0)
      break;
    // Never more than Limit, even from a file that grows meanwhile.
    Text.append(Chunk, std::min(static_cast<size_t>(N), Limit - Text.size()));
    if (Text.size() == Limit)
      break;
  }
  return Text;
}

Expected<std::unique_ptr<MemoryBuffer>>
mapBoundedFile(StringRef Path, size_t Limit, StringRef What) {
  FdCloser Closer;
  struct stat St;
  if (Error E = openRegular(Path, Limit, What, /*Truncate=*/false, Closer, St))
    return E;
  ErrorOr<std::unique_ptr<MemoryBuffer>> B = MemoryBuffer::getOpenFile(
      sys::fs::convertFDToNativeFile(Closer.Fd), Path,
      static_cast<uint64_t>(St.st_size), /*RequiresNullTerminator=*/false);
  if (!B)
    return fail(BoundedReadError::Kind::ReadFailed,
                "cannot read " + What + " '" + Path +
                    "': " + B.getError().message());
  return std::move(*B);
}

Expected<std::string> readBoundedFile(StringRef Path, size_t Limit,
                                      StringRef What) {
  return readRegular(Path, Limit, What, /*Truncate=*/false);
}

Expected<std::string> readFileHead(StringRef Path, size_t Limit,
                                   StringRef What) {
  return readRegular(Path, Limit, What, /*Truncate=*/true);
}

} // namespace cudadeps
