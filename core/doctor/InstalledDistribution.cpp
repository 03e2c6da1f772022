//===- InstalledDistribution.cpp - what a dist-info says about a build ----===//

#include "core/doctor/InstalledDistribution.h"

#include "core/support/BoundedFile.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"

using namespace llvm;

namespace cudadeps {

namespace {

constexpr size_t MaxMetadataBytes = 1 << 20;
constexpr size_t MaxRecordBytes = 16 << 20;
constexpr size_t MaxSharedObjects = 256;
constexpr unsigned MaxEditableDepth = 4;

std::optional<std::string> readBounded(const Twine &Path, size_t Limit) {
  Expected<std::string> Text = readBoundedFile(Path.str(), Limit, "file");
  if (!Text) {
    consumeError(Text.takeError());
    return std::nullopt;
  }
  return std::move(*Text);
}

std::optional<Version> parseQuietly(StringRef Text) {
  Expected<Version> V = Version::parse(Text);
  if (V)
    return std::move(*V);
  consumeError(V.takeError());
  return std::nullopt;
}

bool isSharedObjectName(StringRef Name) {
  Name = sys::path::filename(Name);
  return Name.endswith(".so") || Name.contains(".so.");
}

/// The first field of a RECORD line (CSV: a path, quoted when it holds a
/// comma or a quote).
std::string recordPath(StringRef Line) {
  if (!Line.startswith("\""))
    return Line.split(',').first.str();
  std::string Out;
  for (size_t I = 1; I < Line.size(); ++I) {
    if (Line[I] == '"') {
      if (I + 1 < Line.size() && Line[I + 1] == '"') {
        Out += '"';
        ++I;
        continue;
      }
      break;
    }
    Out += Line[I];
  }
  return Out;
}

void addIfSharedObject(StringRef Base, StringRef Rel,
                       InstalledDistribution &D) {
  if (!isSharedObjectName(Rel) || D.SharedObjects.size() >= MaxSharedObjects)
    return;
  SmallString<256> P;
  if (sys::path::is_absolute(Rel))
    P = Rel;
  else {
    P = Base;
    sys::path::append(P, Rel);
  }
  sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  if (sys::fs::is_regular_file(P))
    D.SharedObjects.push_back(std::string(P));
}

void listFiles(StringRef Base, StringRef ListText, bool Csv,
               InstalledDistribution &D) {
  SmallVector<StringRef, 64> Lines;
  ListText.split(Lines, '\n', -1, /*KeepEmpty=*/false);
  for (StringRef Line : Lines) {
    Line = Line.rtrim("\r");
    addIfSharedObject(Base, Csv ? recordPath(Line) : Line.trim().str(), D);
  }
}

void findUnder(StringRef Dir, unsigned Depth, InstalledDistribution &D) {
  std::error_code EC;
  for (sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC)) {
    StringRef Name = sys::path::filename(It->path());
    if (Name.startswith(".") || Name == "build" || Name == "__pycache__")
      continue;
    if (It->type() == sys::fs::file_type::directory_file) {
      if (Depth < MaxEditableDepth)
        findUnder(It->path(), Depth + 1, D);
    } else if (isSharedObjectName(Name)) {
      addIfSharedObject("", It->path(), D);
    }
  }
}

void readDirectUrl(StringRef DistInfo, InstalledDistribution &D) {
  std::optional<std::string> Text =
      readBounded(DistInfo + "/direct_url.json", MaxMetadataBytes);
  if (!Text)
    return;
  Expected<json::Value> V = json::parse(*Text);
  if (!V) {
    consumeError(V.takeError());
    return;
  }
  const json::Object *O = V->getAsObject();
  if (!O)
    return;
  if (auto Url = O->getString("url"))
    D.WheelUrl = Url->str();
  if (const json::Object *Dir = O->getObject("dir_info")) {
    auto Editable = Dir->getBoolean("editable");
    D.Editable = Editable && *Editable;
  }
}

void readMetadata(StringRef DistInfo, InstalledDistribution &D) {
  std::optional<std::string> Text;
  for (const char *Name : {"METADATA", "PKG-INFO"})
    if ((Text = readBounded(DistInfo + "/" + Name, MaxMetadataBytes)))
      break;
  if (!Text)
    return;
  SmallVector<StringRef, 64> Lines;
  StringRef(*Text).split(Lines, '\n');
  for (StringRef Line : Lines) {
    Line = Line.rtrim();
    if (Line.empty())
      break; // the headers end at the first blank line
    if (Line.consume_front("Version:")) {
      if (!D.Ver)
        D.Ver = parseQuietly(Line.trim());
      continue;
    }
    if (!Line.consume_front("Requires-Dist:"))
      continue;
    Line = Line.trim();
    if (Line.contains(';')) // a marker (extra == ..., python_version ...)
      continue;
    size_t NameEnd = Line.find_first_of(" (<>=!~[");
    if (Line.take_front(NameEnd).lower() != "torch")
      continue;
    StringRef Spec = Line.drop_front(std::min(NameEnd, Line.size())).trim();
    if (Spec.consume_front("("))
      Spec = Spec.rtrim(")");
    D.TorchRequirement = Spec.trim().str();
  }
}

} // namespace

BuildTag parseBuildTag(StringRef Label) {
  BuildTag T;
  T.Label = Label.str();
  std::string Lower = Label.lower();
  SmallVector<StringRef, 4> M;
  if (Regex("torch([0-9]+)\\.([0-9]+)").match(Lower, &M))
    T.Torch = parseQuietly((M[1] + "." + M[2]).str());
  else if (Regex("pt([0-9])([0-9]+)").match(Lower, &M))
    T.Torch = parseQuietly((M[1] + "." + M[2]).str());
  if (Regex("cu([0-9]+)").match(Lower, &M)) {
    unsigned N = 0;
    if (!M[1].getAsInteger(10, N)) {
      if (N < 20) {
        T.CudaMajor = N;
      } else {
        T.CudaMajor = N / 10;
        T.Cuda = Version({N / 10, N % 10});
      }
    }
  }
  if (Regex("cxx11abi(true|false)").match(Lower, &M))
    T.Cxx11Abi = M[1] == "true";
  return T;
}

std::string wheelLocalLabel(StringRef FileOrUrl) {
  StringRef Name = FileOrUrl.rsplit('/').second;
  if (Name.empty())
    Name = FileOrUrl;
  if (!Name.endswith(".whl"))
    return {};
  // name-version-...: the version is the second dash-separated field.
  StringRef Ver = Name.split('-').second.split('-').first;
  // URLs may escape '+' as %2B.
  std::string V = Ver.str();
  size_t Esc = StringRef(V).find_insensitive("%2b");
  if (Esc != std::string::npos)
    V.replace(Esc, 3, "+");
  size_t Plus = V.find('+');
  return Plus == std::string::npos ? std::string() : V.substr(Plus + 1);
}

Expected<InstalledDistribution>
readInstalledDistribution(StringRef DistInfoDir) {
  if (!sys::fs::is_directory(DistInfoDir))
    return createStringError(inconvertibleErrorCode(), "cannot read " +
                                                           DistInfoDir +
                                                           ": not a directory");
  InstalledDistribution D;
  D.DistInfo = DistInfoDir.str();
  D.Site = sys::path::parent_path(DistInfoDir).str();
  StringRef Stem = sys::path::filename(DistInfoDir);
  bool Egg = Stem.consume_back(".egg-info");
  if (!Egg)
    Stem.consume_back(".dist-info");
  D.Ver = parseQuietly(Stem.split('-').second.split('-').first);
  readMetadata(DistInfoDir, D);
  readDirectUrl(DistInfoDir, D);

  if (D.Ver && !D.Ver->local().empty()) {
    D.Tag = parseBuildTag(D.Ver->local());
    D.TagFrom = "its version " + D.Ver->str();
  }
  if (D.Tag.empty()) {
    std::string Label = wheelLocalLabel(D.WheelUrl);
    if (!Label.empty()) {
      D.Tag = parseBuildTag(Label);
      D.TagFrom = "the wheel it was installed from (" +
                  sys::path::filename(D.WheelUrl).str() + ")";
    }
  }

  if (std::optional<std::string> Record =
          readBounded(DistInfoDir + "/RECORD", MaxRecordBytes)) {
    listFiles(D.Site, *Record, /*Csv=*/true, D);
    D.FilesFrom = "RECORD";
  } else if (std::optional<std::string> Files = readBounded(
                 DistInfoDir + "/installed-files.txt", MaxRecordBytes)) {
    listFiles(DistInfoDir, *Files, /*Csv=*/false, D);
    D.FilesFrom = "installed-files.txt";
  }
  StringRef Url = D.WheelUrl;
  if (D.Editable && Url.consume_front("file://")) {
    findUnder(Url, 0, D);
    D.FilesFrom = "the editable source " + Url.str();
  }
  return D;
}

} // namespace cudadeps
