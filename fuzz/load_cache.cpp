//===- load_cache.cpp - fuzz load-cache files and cached manifests --------===//
//
// LoadCache::deserialize() reads <cache dir>/loaded/*.bin, which anything
// with write access to the cache directory may have written; each file's
// blob is then decoded by decodeManifest(). The input is tried as a whole
// cache file (its checksum rejects nearly everything), then wrapped in a
// valid cache file (which must read back with the same blob) and decoded as
// a manifest: a manifest that decodes must encode and decode to the same
// bytes again, and decode the same with its releases' requirements kept as
// bytes until read (as the registry decodes the load cache's blobs), and
// what the solver reads of those bytes without decoding them is the same.
//
//===----------------------------------------------------------------------===//
#include "FuzzSupport.h"

#include "core/manifest/ManifestCodec.h"
#include "core/support/LoadCache.h"

#include <algorithm>
#include <utility>

using namespace cudadeps;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef In = fuzz::asText(Data, Size);
  LoadCache Cache("/nonexistent-cudadeps-fuzz", "registry", "/fuzz/registry");
  (void)Cache.deserialize(In);

  LoadCacheContents Wrapped;
  Wrapped.Files.push_back(
      {"f.toml", FileIdentity{}, "f", SharedBytes(In.str())});
  std::optional<LoadCacheContents> Back =
      Cache.deserialize(Cache.serialize(Wrapped));
  if (Cache.enabled() &&
      (!Back || Back->Files.size() != 1 || Back->Files[0].Blob.Bytes != In))
    fuzz::fail("a cache file does not read back as written", "");

  std::optional<Manifest> M = decodeManifest(In, "f.toml");
  if (!M)
    return 0;
  std::string Again = encodeManifest(*M);
  std::optional<Manifest> M2 = decodeManifest(Again, "f.toml");
  if (!M2 || encodeManifest(*M2) != Again)
    fuzz::fail("a decoded manifest does not encode and decode to itself", "");
  std::optional<Manifest> Kept = decodeManifestDeferred(
      std::make_shared<const std::string>(In.str()), "f.toml", "");
  if (Kept && Kept->Pkg && M->Pkg) {
    // What the solver reads of kept requirements (readRequirementRanges),
    // found in a kept release's bytes (readReleaseRequires) or in a decoded
    // release, is what decoding them gives.
    const ReleaseList &Rs = std::as_const(Kept->Pkg->Releases);
    auto SameAsDecoded = [&](size_t I,
                             const Deferred<RequirementMap>::Encoded &E) {
      std::vector<RequirementRange> Read;
      const RequirementMap &Whole =
          std::as_const(M->Pkg->Releases)[I].Requires.get();
      std::vector<RequirementRange> Memoized;
      RangeMemo Memo;
      bool Same = readRequirementRanges(E, Read) && Read.size() == Whole.size() &&
                  readRequirementRanges(E, Memoized, &Memo) &&
                  Memoized.size() == Whole.size();
      size_t K = 0;
      for (auto It = Whole.begin(); Same && It != Whole.end(); ++It, ++K)
        Same = Read[K].Key == It->first && Read[K].Range == It->second.Range &&
               Memoized[K].range() == It->second.Range &&
               Read[K].Extras.size() == It->second.Extras.size() &&
               std::equal(Read[K].Extras.begin(), Read[K].Extras.end(),
                          It->second.Extras.begin());
      return Same;
    };
    for (size_t I = 0; I < Rs.size(); ++I) {
      if (auto Body = Rs.keptBody(I)) {
        Deferred<RequirementMap>::Encoded E;
        if (!readReleaseRequires(*Body, E) || !SameAsDecoded(I, E) ||
            !Rs.isEncoded(I))
          fuzz::fail("a kept release's requirements read from its bytes "
                     "differ from their decode",
                     "");
      }
      auto E = Rs[I].Requires.encoded();
      if (E && !SameAsDecoded(I, *E))
        fuzz::fail("a release's requirements read without decoding them "
                   "differ from their decode",
                   "");
    }
  }
  if (!Kept || encodeManifest(*Kept) != Again)
    fuzz::fail("a manifest decodes differently with its requirements kept "
               "as bytes until read",
               "");
  return 0;
}
