//===- ZipBackend.h - the libzip operations wheels need, loaded on demand -===//
//
// libzip brings libcrypto, libbz2 and zlib with it: linked into cudadeps,
// the dynamic loader maps and relocates them at every start (libcrypto alone
// is about 2 ms, with its thousands of relocations and its initialiser), also
// for a warm `resolve` that never opens a wheel. So the libzip calls live in
// a module of their own, <prefix>/lib/cudadeps/libcudadeps-zip.so, opened
// (core/support/LoadableModule.h) only where a wheel is read or written:
// `toolkit install` and the tests that build synthetic wheels.
//
// The interface holds only standard C++ types: the module links libzip and
// the C++ runtime, nothing of cudadeps or LLVM. It mirrors the libzip calls
// WheelArchive makes, one for one; what is safe to extract, and the
// messages, are decided in WheelArchive.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_TOOLKIT_ZIPBACKEND_H
#define CUDADEPS_CORE_TOOLKIT_ZIPBACKEND_H

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace cudadeps::libzip {

/// Bumped when anything in this header changes.
inline constexpr int BackendAbiVersion = 1;
/// The module's entry point: Backend *cudadeps_zip_backend(int AbiVersion),
/// null when the version is not its own.
inline constexpr const char *BackendEntryPoint = "cudadeps_zip_backend";

/// The outcome of one call: on failure, libzip's error text.
struct Status {
  bool Ok = true;
  std::string Message;
  bool ok() const { return Ok; }
  static Status failed(std::string Message) { return {false, std::move(Message)}; }
};

/// What the central directory says of one member.
struct MemberInfo {
  std::string Name;
  bool HasSize = false;
  uint64_t Size = 0;
  /// The external attributes, when the member was made on Unix (the file
  /// type and mode in the upper 16 bits).
  bool HasUnixAttributes = false;
  uint32_t UnixAttributes = 0;
};

/// One member opened for reading.
class MemberReader {
public:
  virtual ~MemberReader() = default;
  /// Bytes read into \p Buf (at most \p Size); 0 at the end, < 0 on an error
  /// (then error() says what).
  virtual int64_t read(char *Buf, size_t Size) = 0;
  virtual std::string error() = 0;
};

/// An archive opened for reading (with its consistency checked).
class Reader {
public:
  virtual ~Reader() = default;
  virtual uint64_t members() = 0;
  virtual Status stat(uint64_t Index, MemberInfo &Out) = 0;
  virtual Status open(uint64_t Index, std::unique_ptr<MemberReader> &Out) = 0;
};

/// An archive being written: nothing is on disk before close(); destroyed
/// without close(), it is discarded.
class Writer {
public:
  virtual ~Writer() = default;
  /// Adds (or replaces) member \p Name holding a copy of \p Data.
  virtual Status add(const std::string &Name, const std::string &Data,
                     uint32_t UnixAttributes) = 0;
  virtual Status close() = 0;
};

class Backend {
public:
  virtual ~Backend() = default;
  virtual Status openArchive(const std::string &Path,
                             std::unique_ptr<Reader> &Out) = 0;
  /// Creates (or truncates) the archive at \p Path.
  virtual Status createArchive(const std::string &Path,
                               std::unique_ptr<Writer> &Out) = 0;
};

} // namespace cudadeps::libzip

#endif
