#include "core/toolkit/ToolkitStore.h"

#include "core/support/BoundedFile.h"
#include "core/support/FileLock.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>

using namespace llvm;

namespace cudadeps {

static StringRef kindName(ToolkitOrigin::Kind K) {
  switch (K) {
  case ToolkitOrigin::Kind::Pypi:
    return "pypi";
  case ToolkitOrigin::Kind::Wheels:
    return "wheels";
  case ToolkitOrigin::Kind::Runfile:
    return "runfile";
  }
  return "pypi";
}

std::string ToolkitOrigin::describe() const {
  switch (How) {
  case Kind::Pypi:
    return "NVIDIA's wheels from PyPI";
  case Kind::Wheels:
    return "NVIDIA's wheels from " + From;
  case Kind::Runfile:
    return "NVIDIA's runfile " + From;
  }
  return From;
}

std::string ToolkitOrigin::toJson() const {
  json::Array Comps;
  for (const auto &[Name, Ver] : Components)
    Comps.push_back(json::Object{{"name", Name}, {"version", Ver}});
  json::Object O{{"version", Version},
                 {"origin", kindName(How)},
                 {"from", From},
                 {"components", std::move(Comps)},
                 {"installed_at", InstalledAt},
                 {"bytes", static_cast<int64_t>(Bytes)}};
  std::string Out;
  raw_string_ostream OS(Out);
  OS << formatv("{0:2}", json::Value(std::move(O))) << '\n';
  return OS.str();
}

Expected<ToolkitOrigin> ToolkitOrigin::fromJson(StringRef Text) {
  Expected<json::Value> V = json::parse(Text);
  if (!V)
    return V.takeError();
  const json::Object *O = V->getAsObject();
  auto Bad = [](const Twine &What) {
    return createStringError(inconvertibleErrorCode(), "%s",
                             What.str().c_str());
  };
  if (!O)
    return Bad("the origin record is not a JSON object");
  ToolkitOrigin R;
  auto Str = [&](StringRef Key) -> std::string {
    if (Optional<StringRef> S = O->getString(Key))
      return S->str();
    return {};
  };
  R.Version = Str("version");
  if (R.Version.empty())
    return Bad("the origin record has no version");
  std::string K = Str("origin");
  if (K == "wheels")
    R.How = Kind::Wheels;
  else if (K == "runfile")
    R.How = Kind::Runfile;
  else if (K == "pypi" || K.empty())
    R.How = Kind::Pypi;
  else
    return Bad("unknown origin '" + K + "'");
  R.From = Str("from");
  R.InstalledAt = Str("installed_at");
  if (Optional<int64_t> B = O->getInteger("bytes"); B && *B >= 0)
    R.Bytes = static_cast<uint64_t>(*B);
  if (const json::Array *A = O->getArray("components"))
    for (const json::Value &E : *A)
      if (const json::Object *C = E.getAsObject()) {
        Optional<StringRef> N = C->getString("name"), Ver = C->getString("version");
        if (N && Ver)
          R.Components.emplace_back(N->str(), Ver->str());
      }
  return R;
}

std::string toolkitStoreDir(const Environment &Env) {
  SmallString<256> P;
  if (std::optional<std::string> X = Env.get("XDG_DATA_HOME");
      X && !X->empty() && sys::path::is_absolute(*X)) {
    P = *X;
  } else if (std::optional<std::string> H = Env.get("HOME"); H && !H->empty()) {
    P = *H;
    sys::path::append(P, ".local", "share");
  } else {
    return {};
  }
  sys::path::append(P, "cudadeps", "toolkits");
  return std::string(P);
}

std::optional<ToolkitOrigin> readToolkitOrigin(StringRef Root) {
  SmallString<256> P(Root);
  sys::path::append(P, ToolkitOriginFile);
  // Bounded and never blocking: the probe reads this file too.
  Expected<std::string> Text =
      readBoundedFile(P, 1 << 20, "toolkit origin record");
  if (!Text) {
    consumeError(Text.takeError());
    return std::nullopt;
  }
  Expected<ToolkitOrigin> O = ToolkitOrigin::fromJson(*Text);
  if (!O) {
    consumeError(O.takeError());
    return std::nullopt;
  }
  return std::move(*O);
}

std::vector<InstalledToolkit> listInstalledToolkits(StringRef Store) {
  std::vector<InstalledToolkit> Out;
  std::error_code EC;
  for (sys::fs::directory_iterator It(Store, EC), End; It != End && !EC;
       It.increment(EC)) {
    StringRef Name = sys::path::filename(It->path());
    if (Name.startswith("."))
      continue;
    Expected<Version> V = Version::parse(Name);
    if (!V) {
      consumeError(V.takeError());
      continue;
    }
    SmallString<256> Nvcc(It->path());
    sys::path::append(Nvcc, "bin", "nvcc");
    if (!sys::fs::can_execute(Nvcc))
      continue;
    Out.push_back({It->path(), std::move(*V), readToolkitOrigin(It->path())});
  }
  std::sort(Out.begin(), Out.end(),
            [](const InstalledToolkit &A, const InstalledToolkit &B) {
              return A.Ver < B.Ver;
            });
  return Out;
}

std::string toolkitLockPath(StringRef Store, StringRef VersionText) {
  SmallString<256> P(Store);
  sys::path::append(P, ".locks", VersionText + ".lock");
  return std::string(P);
}

Error removeToolkit(StringRef Store, StringRef VersionText) {
  Expected<Version> V = Version::parse(VersionText);
  if (!V)
    return createStringError(inconvertibleErrorCode(),
                             "invalid toolkit version '%s': %s",
                             VersionText.str().c_str(),
                             toString(V.takeError()).c_str());
  Expected<FileLock> Lock = FileLock::acquire(toolkitLockPath(Store, VersionText));
  if (!Lock)
    return Lock.takeError();
  SmallString<256> Dir(Store);
  sys::path::append(Dir, VersionText);
  if (!sys::fs::is_directory(Dir))
    return createStringError(inconvertibleErrorCode(),
                             "toolkit %s is not installed in %s",
                             VersionText.str().c_str(), Store.str().c_str());
  SmallString<256> Model(Store);
  sys::path::append(Model, ".removing-" + VersionText + "-%%%%%%");
  SmallString<256> Gone;
  if (std::error_code EC = sys::fs::createUniqueDirectory(Model, Gone))
    return createStringError(EC, "cannot remove %s: %s", Dir.c_str(),
                             EC.message().c_str());
  (void)sys::fs::remove(Gone);
  if (std::error_code EC = sys::fs::rename(Dir, Gone))
    return createStringError(EC, "cannot remove %s: %s", Dir.c_str(),
                             EC.message().c_str());
  if (std::error_code EC = sys::fs::remove_directories(Gone))
    return createStringError(EC, "%s was taken out of use but not all of it "
                                 "could be deleted (%s): %s",
                             Dir.c_str(), Gone.c_str(), EC.message().c_str());
  return Error::success();
}

uint64_t treeSize(StringRef Dir) {
  uint64_t Total = 0;
  std::error_code EC;
  for (sys::fs::recursive_directory_iterator It(Dir, EC, /*follow=*/false), End;
       It != End && !EC; It.increment(EC)) {
    sys::fs::file_status St;
    if (!sys::fs::status(It->path(), St, /*Follow=*/false) &&
        St.type() == sys::fs::file_type::regular_file)
      Total += St.getSize();
  }
  return Total;
}

} // namespace cudadeps
