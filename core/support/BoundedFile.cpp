//===- BoundedFile.cpp - reading files that others wrote, within limits ---===//

#include "core/support/BoundedFile.h"

#include "llvm/ADT/Twine.h"
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

static Expected<std::string> readRegular(StringRef Path, size_t Limit,
                                         StringRef What, bool Truncate) {
  std::string P = Path.str();
  // O_NONBLOCK: opening a FIFO for reading does not wait for a writer.
  int Fd = ::open(P.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (Fd < 0)
    return fail(BoundedReadError::Kind::CannotOpen,
                "cannot read " + What + " '" + Path + "': " +
                    std::strerror(errno));
  struct FdCloser {
    int Fd;
    ~FdCloser() { ::close(Fd); }
  } Closer{Fd};
  struct stat St;
  if (::fstat(Fd, &St) != 0)
    return fail(BoundedReadError::Kind::CannotOpen,
                "cannot read " + What + " '" + Path + "': " +
                    std::strerror(errno));
  if (!S_ISREG(St.st_mode))
    return fail(BoundedReadError::Kind::NotRegular,
                What + " '" + Path + "' is " + kindOfMode(St.st_mode) +
                    ", not a regular file");
  auto TooLarge = [&](uint64_t Size, bool AtLeast) {
    return fail(BoundedReadError::Kind::TooLarge,
                What + " '" + Path + "' is too large (" +
                    (AtLeast ? "more than " : "") + Twine(Size) +
                    " bytes; the limit is " + Twine(uint64_t(Limit)) + ")");
  };
  if (!Truncate && St.st_size > 0 && static_cast<uint64_t>(St.st_size) > Limit)
    return TooLarge(static_cast<uint64_t>(St.st_size), false);
  // A regular file does not block; clear the flag for files in /proc and
  // /sys that may behave otherwise.
  ::fcntl(Fd, F_SETFL, ::fcntl(Fd, F_GETFL) & ~O_NONBLOCK);
  std::string Text;
  Text.reserve(std::min<size_t>(
      Limit, St.st_size > 0 ? static_cast<size_t>(St.st_size) : 4096));
  char Chunk[16384];
  while (true) {
    ssize_t N = ::read(Fd, Chunk, sizeof(Chunk));
    if (N < 0 && errno == EINTR)
      continue;
    if (N < 0)
      return fail(BoundedReadError::Kind::ReadFailed,
                  "cannot read " + What + " '" + Path + "': " +
                      std::strerror(errno));
    if (N == 0)
      break;
    size_t Got = static_cast<size_t>(N);
    if (Text.size() + Got > Limit) {
      if (!Truncate)
        return TooLarge(Limit, true);
      Text.append(Chunk, Limit - Text.size());
      break;
    }
    Text.append(Chunk, Got);
  }
  return Text;
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
