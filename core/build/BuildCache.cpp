#include "core/build/BuildCache.h"

#include "core/fetch/SourceFetcher.h"
#include "core/support/BoundedFile.h"
#include "core/support/Hash.h"
#include "core/support/JsonSupport.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace cudadeps {

/// Bumped when the layout of an entry changes.
static constexpr StringLiteral EntryFormat = "cudadeps-build-entry-1";

void CacheKey::add(StringRef Name, StringRef Value) {
  Inputs.emplace_back(Name.str(), Value.str());
}

std::string CacheKey::hash() const {
  std::string Text = EntryFormat.str() + "\n";
  for (const auto &[K, V] : Inputs) {
    // Length-prefixed, so no value can imitate another line.
    Text += std::to_string(K.size()) + ":" + K + "=" +
            std::to_string(V.size()) + ":" + V + "\n";
  }
  return sha256Hex(Text);
}

static std::string pathJoin(StringRef A, StringRef B, StringRef C = {}) {
  SmallString<256> P(A);
  sys::path::append(P, B);
  if (!C.empty())
    sys::path::append(P, C);
  return std::string(P);
}

static std::string stringOf(const json::Object &O, StringRef Key) {
  Optional<StringRef> S = O.getString(Key);
  return S ? S->str() : std::string();
}

std::string BuildCache::entryDir(StringRef Key) const {
  return pathJoin(Root, "builds", Key);
}

std::string BuildCache::wheelsDir() const { return pathJoin(Root, "wheels"); }

std::string BuildCache::logPath(StringRef Package, StringRef Version,
                                StringRef Key) const {
  return pathJoin(Root, "logs",
              (Package + "-" + Version + "-" + Key.take_front(12) + ".log")
                  .str());
}

std::optional<CacheEntry> BuildCache::lookup(StringRef Key) const {
  std::string Dir = entryDir(Key);
  // A cache may be shared: its entry is read bounded and parsed with the
  // depth bound; anything odd is a miss.
  Expected<std::string> Text = readBoundedFile(
      pathJoin(Dir, "entry.json"), MaxBuildCacheEntryBytes, "entry");
  if (!Text) {
    consumeError(Text.takeError());
    return std::nullopt;
  }
  Expected<json::Value> V = parseJson(*Text);
  if (!V) {
    consumeError(V.takeError());
    return std::nullopt;
  }
  const json::Object *O = V->getAsObject();
  if (!O || stringOf(*O, "format") != EntryFormat ||
      stringOf(*O, "key") != Key)
    return std::nullopt;
  CacheEntry E;
  E.Key = Key.str();
  E.Dir = Dir;
  E.OutDir = pathJoin(Dir, "out");
  E.Package = stringOf(*O, "package");
  E.Version = stringOf(*O, "version");
  E.Commit = stringOf(*O, "commit");
  if (const json::Array *W = O->getArray("wheels"))
    for (const json::Value &X : *W)
      if (auto S = X.getAsString()) {
        std::string Path = pathJoin(E.OutDir, *S);
        if (!sys::fs::exists(Path))
          return std::nullopt; // a wheel was removed: rebuild
        E.Wheels.push_back(Path);
      }
  return E;
}

Expected<FileLock> BuildCache::lock(StringRef Key,
                                    function_ref<void()> OnWait) const {
  return FileLock::acquire(entryDir(Key) + ".lock", OnWait);
}

Expected<std::string> BuildCache::makeTemp(StringRef Key) const {
  std::string Builds = pathJoin(Root, "builds");
  if (std::error_code EC = sys::fs::create_directories(Builds))
    return createStringError(EC, "cannot create %s: %s", Builds.c_str(),
                             EC.message().c_str());
  std::string Prefix = (".tmp-" + Key).str();
  removeLeftovers(Builds, Prefix);
  SmallString<256> Tmp;
  if (std::error_code EC =
          sys::fs::createUniqueDirectory(pathJoin(Builds, Prefix), Tmp))
    return createStringError(EC, "cannot create a directory in %s: %s",
                             Builds.c_str(), EC.message().c_str());
  if (std::error_code EC = sys::fs::create_directory(pathJoin(Tmp, "out")))
    return createStringError(EC, "cannot create %s/out: %s", Tmp.c_str(),
                             EC.message().c_str());
  return std::string(Tmp);
}

Error BuildCache::commit(StringRef TempDir, CacheEntry &E,
                         const CacheKey &Inputs) const {
  json::Object O;
  O["format"] = EntryFormat;
  O["key"] = E.Key;
  O["package"] = E.Package;
  O["version"] = E.Version;
  O["commit"] = E.Commit;
  json::Array Wheels;
  for (const std::string &W : E.Wheels)
    Wheels.push_back(sys::path::filename(W).str());
  O["wheels"] = std::move(Wheels);
  json::Object In;
  for (const auto &[K, V] : Inputs.inputs())
    In[K] = V;
  O["inputs"] = std::move(In);
  {
    std::error_code EC;
    raw_fd_ostream OS(pathJoin(TempDir, "entry.json"), EC);
    if (EC)
      return createStringError(EC, "cannot write the cache entry in %s: %s",
                               TempDir.str().c_str(), EC.message().c_str());
    OS << formatv("{0:2}", json::Value(std::move(O))) << '\n';
    OS.close();
    if (OS.has_error()) {
      OS.clear_error();
      return createStringError(inconvertibleErrorCode(),
                               "cannot write the cache entry in " + TempDir);
    }
  }
  std::string Final = entryDir(E.Key);
  if (sys::fs::exists(Final))
    (void)sys::fs::remove_directories(Final); // untrusted remains
  if (std::error_code EC = sys::fs::rename(TempDir, Final))
    return createStringError(EC, "cannot move the cache entry to %s: %s",
                             Final.c_str(), EC.message().c_str());
  E.Dir = Final;
  E.OutDir = pathJoin(Final, "out");
  return Error::success();
}

} // namespace cudadeps
