#include "core/toolkit/WheelArchive.h"

#include "core/support/Interrupt.h"
#include "core/toolkit/ZipModule.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <sys/stat.h>
#include <unistd.h>

using namespace llvm;

namespace cudadeps {

namespace {

/// Quotes an archive member name for a message: printable ASCII as is,
/// anything else as \xNN, at most 200 bytes.
std::string quoted(StringRef Name) {
  std::string Out = "'";
  for (unsigned char C : Name.take_front(200)) {
    if (C >= 0x20 && C < 0x7f && C != '\'')
      Out += C;
    else
      Out += "\\x" + utohexstr(C, /*LowerCase=*/true, /*Width=*/2);
  }
  if (Name.size() > 200)
    Out += "...";
  return Out + "'";
}

Error archiveError(StringRef Path, const Twine &Message) {
  return createStringError(inconvertibleErrorCode(), "%s: %s",
                           Path.str().c_str(), Message.str().c_str());
}

Expected<std::unique_ptr<libzip::Reader>> openArchive(StringRef Path) {
  Expected<libzip::Backend *> Zip = loadZipBackend();
  if (!Zip)
    return Zip.takeError();
  std::unique_ptr<libzip::Reader> Z;
  if (libzip::Status S = (*Zip)->openArchive(Path.str(), Z); !S.ok())
    return archiveError(Path, "cannot read the archive: " + S.Message);
  return Z;
}

Expected<ArchiveMember> memberAt(libzip::Reader &Z, uint64_t I,
                                 StringRef Path) {
  libzip::MemberInfo Info;
  if (libzip::Status S = Z.stat(I, Info); !S.ok())
    return archiveError(Path, "cannot read member " + Twine(I) + ": " +
                                  S.Message);
  ArchiveMember M;
  M.Name = std::move(Info.Name);
  M.Size = Info.HasSize ? Info.Size : 0;
  M.IsDirectory = StringRef(M.Name).endswith("/");
  if (Info.HasUnixAttributes) {
    unsigned Mode = Info.UnixAttributes >> 16;
    M.Mode = Mode & 0777;
    M.IsSymlink = S_ISLNK(Mode);
    if (S_ISDIR(Mode))
      M.IsDirectory = true;
  }
  return M;
}

/// Opens member \p I for reading.
Expected<std::unique_ptr<libzip::MemberReader>>
openMember(libzip::Reader &Z, uint64_t I, StringRef Path, StringRef Name) {
  std::unique_ptr<libzip::MemberReader> F;
  if (libzip::Status S = Z.open(I, F); !S.ok())
    return archiveError(Path, "cannot read " + quoted(Name) + ": " +
                                  S.Message);
  return F;
}

/// Reads a whole member (a link target) of at most \p Limit bytes.
Expected<std::string> readMember(libzip::Reader &Z, uint64_t I,
                                 StringRef Path, StringRef Name, size_t Limit) {
  Expected<std::unique_ptr<libzip::MemberReader>> F =
      openMember(Z, I, Path, Name);
  if (!F)
    return F.takeError();
  std::string Out;
  char Buf[4096];
  int64_t N;
  while ((N = (*F)->read(Buf, sizeof(Buf))) > 0) {
    Out.append(Buf, static_cast<size_t>(N));
    if (Out.size() > Limit)
      return archiveError(Path, "the link target of " + quoted(Name) +
                                    " is too long");
  }
  if (N < 0)
    return archiveError(Path, "cannot read " + quoted(Name) + ": " +
                                  (*F)->error());
  return Out;
}

/// True if some existing component of \p Rel (relative to \p Root) is a
/// symbolic link: writing there would go through it.
bool throughLink(StringRef Root, StringRef Rel) {
  SmallString<256> P(Root);
  SmallVector<StringRef, 16> Parts;
  Rel.split(Parts, '/', -1, /*KeepEmpty=*/false);
  for (StringRef Part : Parts) {
    sys::path::append(P, Part);
    sys::fs::file_status St;
    if (sys::fs::status(P, St, /*Follow=*/false))
      return false; // does not exist yet
    if (St.type() == sys::fs::file_type::symlink_file)
      return true;
  }
  return false;
}

Error writeMemberFile(libzip::Reader &Z, uint64_t I, StringRef Path,
                      const ArchiveMember &M, StringRef Target,
                      uint64_t &Budget) {
  Expected<std::unique_ptr<libzip::MemberReader>> F =
      openMember(Z, I, Path, M.Name);
  if (!F)
    return F.takeError();
  // Replace a file an earlier wheel wrote; never follow a link at the leaf.
  ::unlink(Target.str().c_str());
  unsigned Mode = M.Mode ? (M.Mode & 0755) | 0600 : 0644;
  int FD = ::open(Target.str().c_str(),
                  O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, Mode);
  if (FD < 0)
    return archiveError(Path, "cannot write " + Target + ": " +
                                  std::strerror(errno));
  char Buf[1 << 16];
  int64_t N;
  Error Result = Error::success();
  while ((N = (*F)->read(Buf, sizeof(Buf))) > 0) {
    if (static_cast<uint64_t>(N) > Budget) {
      Result = archiveError(Path, "the archive holds more data than the " +
                                      Twine("limit allows (at ") +
                                      quoted(M.Name) + ")");
      break;
    }
    Budget -= static_cast<uint64_t>(N);
    const char *P = Buf;
    size_t Left = static_cast<size_t>(N);
    while (Left) {
      ssize_t W = ::write(FD, P, Left);
      if (W < 0 && errno == EINTR)
        continue;
      if (W <= 0) {
        Result = archiveError(Path, "cannot write " + Target + ": " +
                                        std::strerror(errno));
        break;
      }
      P += W;
      Left -= static_cast<size_t>(W);
    }
    if (Result)
      break;
    if (interruptRequested()) {
      Result = makeInterrupted("extracting " + Path);
      break;
    }
  }
  if (!Result && N < 0)
    Result = archiveError(Path, "cannot read " + quoted(M.Name) + ": " +
                                    (*F)->error());
  if (::close(FD) != 0 && !Result)
    Result = archiveError(Path, "cannot write " + Target + ": " +
                                    std::strerror(errno));
  // The mode given to open() is filtered by the umask; set it as stored.
  if (!Result)
    ::chmod(Target.str().c_str(), Mode);
  return Result;
}

} // namespace

std::string unsafeMemberReason(StringRef Name) {
  if (Name.empty())
    return "it has an empty name";
  if (Name.contains('\0'))
    return "its name holds a NUL byte";
  if (Name.contains('\\'))
    return "its name holds a backslash";
  if (Name.startswith("/"))
    return "it is an absolute path";
  SmallVector<StringRef, 16> Parts;
  Name.split(Parts, '/', -1, /*KeepEmpty=*/false);
  for (StringRef Part : Parts)
    if (Part == "..")
      return "its path climbs out with '..'";
  return {};
}

std::string unsafeLinkReason(StringRef Name, StringRef Target) {
  if (Target.empty())
    return "its target is empty";
  if (Target.startswith("/"))
    return "it points to an absolute path";
  if (Target.contains('\0') || Target.contains('\\'))
    return "its target holds a NUL byte or a backslash";
  // Leading '..' may climb at most to the tree's root; after the first
  // ordinary component no '..' is allowed (a link on the way could make a
  // later '..' land elsewhere).
  SmallVector<StringRef, 16> Parts;
  StringRef(Name).rtrim('/').split(Parts, '/', -1, /*KeepEmpty=*/false);
  int Depth = static_cast<int>(Parts.size()) - 1; // directories above it
  SmallVector<StringRef, 16> TargetParts;
  Target.split(TargetParts, '/', -1, /*KeepEmpty=*/false);
  bool Descending = false;
  for (StringRef Part : TargetParts) {
    if (Part == ".")
      continue;
    if (Part == "..") {
      if (Descending)
        return "its target goes down and back up with '..'";
      if (--Depth < 0)
        return "it points outside the tree";
      continue;
    }
    Descending = true;
  }
  return {};
}

Expected<std::vector<ArchiveMember>> listArchive(StringRef Path) {
  Expected<std::unique_ptr<libzip::Reader>> Z = openArchive(Path);
  if (!Z)
    return Z.takeError();
  uint64_t N = (*Z)->members();
  std::vector<ArchiveMember> Members;
  for (uint64_t I = 0; I < N; ++I) {
    Expected<ArchiveMember> M = memberAt(**Z, I, Path);
    if (!M)
      return M.takeError();
    Members.push_back(std::move(*M));
  }
  return Members;
}

Expected<ExtractStats> extractArchive(StringRef Path, StringRef Prefix,
                                      StringRef DestDir, uint64_t MaxBytes) {
  Expected<std::unique_ptr<libzip::Reader>> Z = openArchive(Path);
  if (!Z)
    return Z.takeError();
  uint64_t N = (*Z)->members();
  std::vector<ArchiveMember> Members;
  uint64_t Declared = 0;
  // Check every name before writing anything.
  for (uint64_t I = 0; I < N; ++I) {
    Expected<ArchiveMember> M = memberAt(**Z, I, Path);
    if (!M)
      return M.takeError();
    if (std::string Why = unsafeMemberReason(M->Name); !Why.empty())
      return archiveError(Path, "refusing member " + quoted(M->Name) + ": " +
                                    Why);
    Declared += M->Size;
    if (Declared > MaxBytes)
      return archiveError(Path, "its members declare more than " +
                                    Twine(MaxBytes >> 20) + " MiB");
    Members.push_back(std::move(*M));
  }

  ExtractStats Stats;
  uint64_t Budget = MaxBytes;
  for (uint64_t I = 0; I < N; ++I) {
    const ArchiveMember &M = Members[I];
    StringRef Name(M.Name);
    if (!Name.consume_front(Prefix))
      continue;
    Name = Name.rtrim('/');
    if (Name.empty())
      continue;
    if (throughLink(DestDir, sys::path::parent_path(Name, sys::path::Style::posix)))
      return archiveError(Path, "refusing member " + quoted(M.Name) +
                                    ": it would be written through a "
                                    "symbolic link");
    SmallString<256> Target(DestDir);
    sys::path::append(Target, Name);
    if (M.IsDirectory) {
      if (std::error_code EC = sys::fs::create_directories(Target))
        return archiveError(Path, "cannot create " + Target + ": " +
                                      EC.message());
      continue;
    }
    if (std::error_code EC =
            sys::fs::create_directories(sys::path::parent_path(Target)))
      return archiveError(Path, "cannot create " +
                                    sys::path::parent_path(Target) + ": " +
                                    EC.message());
    if (M.IsSymlink) {
      Expected<std::string> LinkTarget =
          readMember(**Z, I, Path, M.Name, 4096);
      if (!LinkTarget)
        return LinkTarget.takeError();
      if (std::string Why = unsafeLinkReason(Name, *LinkTarget); !Why.empty())
        return archiveError(Path, "refusing symbolic link " + quoted(M.Name) +
                                      " -> " + quoted(*LinkTarget) + ": " +
                                      Why);
      ::unlink(Target.c_str());
      if (::symlink(LinkTarget->c_str(), Target.c_str()) != 0)
        return archiveError(Path, "cannot create the link " + Target + ": " +
                                      std::strerror(errno));
      ++Stats.Files;
      continue;
    }
    if (Error E = writeMemberFile(**Z, I, Path, M, Target, Budget))
      return E;
    ++Stats.Files;
    Stats.Bytes += M.Size;
  }
  return Stats;
}

Error writeArchive(StringRef Path, const std::vector<ArchiveEntry> &Entries) {
  Expected<libzip::Backend *> Zip = loadZipBackend();
  if (!Zip)
    return Zip.takeError();
  std::unique_ptr<libzip::Writer> Z;
  if (!(*Zip)->createArchive(Path.str(), Z).ok())
    return archiveError(Path, "cannot create the archive");
  for (const ArchiveEntry &E : Entries) {
    unsigned Type = E.IsSymlink ? S_IFLNK : S_IFREG;
    if (libzip::Status S =
            Z->add(E.Name, E.Data, static_cast<uint32_t>(Type | E.Mode) << 16);
        !S.ok())
      return archiveError(Path, "cannot add " + quoted(E.Name) + ": " +
                                    S.Message);
  }
  if (libzip::Status S = Z->close(); !S.ok())
    return archiveError(Path, "cannot write the archive: " + S.Message);
  return Error::success();
}

} // namespace cudadeps
