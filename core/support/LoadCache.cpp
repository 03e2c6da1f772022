#include "core/support/LoadCache.h"

#include "core/support/AtomicFile.h"
#include "core/support/BinaryCodec.h"
#include "core/support/BoundedFile.h"
#include "core/support/Hash.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <spdlog/spdlog.h>

#include <fcntl.h>
#include <sys/stat.h>

using namespace llvm;

namespace cudadeps {

namespace {

constexpr StringRef Magic = "cudadeps load cache\n";
/// Bumped when the layout of the file or of any cached struct changes.
/// 2: a Version is a flags value, its release and only the parts present.
/// 3: a release's requirements are their own bytes (kept until read).
/// 4: a release is its version and the bytes of the rest (kept until read).
/// 5: a requirement's range is its own bytes (decoded once per distinct one).
/// 6: a release's requirements first in its bytes; a requirement's text and
///    locations one field, skipped in one step.
/// 7: Combined holds the registry's requirement table and each manifest's
///    requirements as numbers into it (core/manifest/RequirementIds.h).
constexpr uint64_t FormatVersion = 7;

uint64_t nanoseconds(const struct timespec &T) {
  return uint64_t(T.tv_sec) * 1000000000u + uint64_t(T.tv_nsec);
}

uint64_t checksum(StringRef Bytes) { return xxHash64(Bytes); }

} // namespace

const std::string &programIdentity() {
  static const std::string Id = [] {
    SmallString<256> Exe;
    if (sys::fs::real_path("/proc/self/exe", Exe))
      return std::string();
    std::optional<FileIdentity> F = identifyFile(Exe);
    if (!F)
      return std::string();
    return formatv("{0} {1} {2}:{3}:{4}:{5}:{6}", CUDADEPS_VERSION, Exe,
                   F->Device, F->Inode, F->Size, F->ModifiedNs, F->ChangedNs)
        .str();
  }();
  return Id;
}

static std::optional<FileIdentity> identityAt(int DirFd, StringRef Path) {
  struct stat St;
  SmallString<256> P(Path);
  if (::fstatat(DirFd, P.c_str(), &St, 0) != 0 || !S_ISREG(St.st_mode))
    return std::nullopt;
  FileIdentity Id;
  Id.Device = uint64_t(St.st_dev);
  Id.Inode = uint64_t(St.st_ino);
  Id.Size = uint64_t(St.st_size);
  Id.ModifiedNs = nanoseconds(St.st_mtim);
  Id.ChangedNs = nanoseconds(St.st_ctim);
  return Id;
}

std::optional<FileIdentity> identifyFile(StringRef Path) {
  return identityAt(AT_FDCWD, Path);
}

std::optional<FileIdentity> identifyFileAt(int DirFd, StringRef Name) {
  return identityAt(DirFd, Name);
}

LoadCache::LoadCache(StringRef CacheDir, StringRef Kind, StringRef SourceDir)
    : Kind(Kind.str()) {
  SmallString<256> Abs(SourceDir);
  if (CacheDir.empty() || sys::fs::make_absolute(Abs) ||
      programIdentity().empty())
    return;
  Source = (Abs.str() + StringRef("\0", 1) + SourceDir).str();
  SmallString<256> P(CacheDir);
  sys::path::append(P, "loaded",
                    Kind + "-" + StringRef(sha256Hex(Source)).take_front(32) +
                        ".bin");
  Path = std::string(P.str());
}

std::string LoadCache::serialize(const LoadCacheContents &C) const {
  BinaryEncoder E("");
  uint64_t Format = FormatVersion;
  std::string Program = programIdentity(), K = Kind, S = Source;
  LoadCacheContents &Mutable = const_cast<LoadCacheContents &>(C);
  E(Format, Program, K, S, Mutable.Files, Mutable.Combined);
  std::string Out = Magic.str() + E.take();
  uint64_t Sum = checksum(Out);
  for (unsigned I = 0; I < 8; ++I)
    Out.push_back(char(Sum >> (8 * I)));
  return Out;
}

std::optional<LoadCacheContents>
LoadCache::deserialize(StringRef Bytes) const {
  auto Copy = std::make_shared<const std::string>(Bytes.str());
  StringRef Own = *Copy;
  return deserialize(std::move(Copy), Own);
}

std::optional<LoadCacheContents>
LoadCache::deserialize(std::shared_ptr<const void> Shared,
                       StringRef Bytes) const {
  if (Bytes.size() < Magic.size() + 8 || !Bytes.startswith(Magic))
    return std::nullopt;
  StringRef Body = Bytes.drop_back(8);
  uint64_t Sum = 0;
  for (unsigned I = 0; I < 8; ++I)
    Sum |= uint64_t(uint8_t(Bytes[Body.size() + I])) << (8 * I);
  if (Sum != checksum(Body))
    return std::nullopt;
  // Checked: the entries' blobs are bytes this program wrote, and stay
  // where they were read (views sharing the buffer).
  BinaryDecoder D = BinaryDecoder::deferring(
      std::move(Shared), Body.drop_front(Magic.size()), "", Path);
  uint64_t Format = 0;
  std::string Program, K, S;
  D(Format, Program, K, S);
  if (!D.remaining() || Format != FormatVersion ||
      Program != programIdentity() || K != Kind || S != Source)
    return std::nullopt;
  LoadCacheContents C;
  D(C.Files, C.Combined);
  if (!D.ok())
    return std::nullopt;
  return C;
}

LoadCacheContents LoadCache::read() const {
  if (!enabled())
    return {};
  // Mapped, not read: a large registry's cache file is megabytes, and its
  // entries are views into it (no copy, no zeroed heap to copy into). A
  // new cache file is renamed into place, so the mapped one never changes.
  Expected<std::unique_ptr<MemoryBuffer>> Mapped =
      mapBoundedFile(Path, MaxLoadCacheBytes, "load cache file");
  if (!Mapped) {
    spdlog::debug("load cache {}: not used ({})", Path,
                  toString(Mapped.takeError()));
    return {};
  }
  std::shared_ptr<const MemoryBuffer> Buffer = std::move(*Mapped);
  StringRef Bytes = Buffer->getBuffer();
  std::optional<LoadCacheContents> C = deserialize(std::move(Buffer), Bytes);
  if (!C) {
    spdlog::debug("load cache {}: not used (damaged, or written by another "
                  "program or for another directory)",
                  Path);
    return {};
  }
  return std::move(*C);
}

void LoadCache::write(const LoadCacheContents &C) const {
  if (!enabled())
    return;
  std::string Bytes = serialize(C);
  if (Bytes.size() > MaxLoadCacheBytes)
    return;
  StringRef Dir = sys::path::parent_path(Path);
  auto Fail = [&](const Twine &Why) {
    spdlog::debug("load cache {}: not written ({})", Path, Why.str());
  };
  if (std::error_code EC = sys::fs::create_directories(Dir))
    return Fail(EC.message());
  if (std::error_code EC = writeFileAtomically(Path, Bytes))
    return Fail(EC.message());
}

} // namespace cudadeps
