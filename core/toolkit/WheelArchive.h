//===- WheelArchive.h - reading wheels (zip files) safely ------------------===//
//
// A wheel is a zip archive. Toolkits are assembled from NVIDIA's wheels, so
// their members are written to disk: every member name is checked first (no
// absolute path, no `..`, no NUL, no backslash), symbolic links may only
// point inside the tree they are written into, nothing is written through a
// link, and the total size is bounded. A hostile archive is an error that
// names the member; nothing outside the destination is ever touched.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_TOOLKIT_WHEELARCHIVE_H
#define CUDADEPS_CORE_TOOLKIT_WHEELARCHIVE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cudadeps {

struct ArchiveMember {
  std::string Name; // as stored, directories end in '/'
  uint64_t Size = 0;
  unsigned Mode = 0; // permission bits (0 when the archive has none)
  bool IsDirectory = false;
  bool IsSymlink = false;
};

/// Why a member name cannot be written under a destination; "" when it can.
/// Names are relative paths with '/' separators.
std::string unsafeMemberReason(llvm::StringRef Name);
/// Why a symbolic link \p Name -> \p Target would point outside the tree it
/// is written into; "" when it stays inside.
std::string unsafeLinkReason(llvm::StringRef Name, llvm::StringRef Target);

struct ExtractStats {
  unsigned Files = 0;
  uint64_t Bytes = 0;
};

/// The members of the zip archive at \p Path.
llvm::Expected<std::vector<ArchiveMember>> listArchive(llvm::StringRef Path);

/// Extracts the members of \p Path whose names start with \p Prefix
/// ("nvidia/cu13/"; the prefix is removed) into \p DestDir, which must exist.
/// Members outside the prefix are skipped, but every member name is checked.
/// At most \p MaxBytes are written. Permission bits are kept (setuid and the
/// like are dropped).
llvm::Expected<ExtractStats> extractArchive(llvm::StringRef Path,
                                            llvm::StringRef Prefix,
                                            llvm::StringRef DestDir,
                                            uint64_t MaxBytes);

/// One member of an archive to write (tests build synthetic wheels with it).
struct ArchiveEntry {
  std::string Name;
  std::string Data; // file content, or the target of a symbolic link
  unsigned Mode = 0644;
  bool IsSymlink = false;
};
/// Writes a zip archive holding \p Entries to \p Path.
llvm::Error writeArchive(llvm::StringRef Path,
                         const std::vector<ArchiveEntry> &Entries);

} // namespace cudadeps

#endif
