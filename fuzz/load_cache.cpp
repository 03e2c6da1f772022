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
#include "core/manifest/RequirementIds.h"
#include "core/support/BinaryCodec.h"
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

  // A registry's requirement table and a manifest's numbers into it
  // (RequirementIds.h), read from any bytes: never a crash.
  std::shared_ptr<const RequirementTable> RawTable =
      RequirementTable::read(std::make_shared<const std::string>(In.str()));
  if (RawTable)
    for (llvm::StringRef Ids : RawTable->PerFile)
      (void)releaseNumbersFit(Ids, Size % 5);

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
    // The releases' numbers in a table made of the manifest: each names
    // the decoded requirement's key and range, in the map's order.
    RequirementTableBuilder Builder;
    std::string Ids = Builder.add(*M->Pkg);
    std::shared_ptr<const RequirementTable> Table = RequirementTable::read(
        std::make_shared<const std::string>(Builder.encode({Ids})));
    if (!Table || Table->PerFile.size() != 1 ||
        !releaseNumbersFit(Table->PerFile[0], Rs.size()))
      fuzz::fail("a manifest's requirement numbers do not read back", "");
    Kept->Pkg->Releases.keepRequirementIds(Table, Table->PerFile[0]);
    for (size_t I = 0; I < Rs.size(); ++I) {
      const RequirementMap &Whole =
          std::as_const(M->Pkg->Releases)[I].Requires.get();
      std::optional<ReleaseList::RequirementNumbers> N = Rs.requirementIds(I);
      bool Extras = std::any_of(Whole.begin(), Whole.end(), [](const auto &E) {
        return !E.second.Extras.empty();
      });
      bool Same = N ? !Extras && N->Count == Whole.size() : Extras;
      size_t K = 0;
      for (auto It = Whole.begin(); N && Same && It != Whole.end(); ++It, ++K) {
        BinaryDecoder D(Table->Ranges[N->range(K)], "");
        VersionSet Range;
        D(Range);
        Same = Table->Keys[N->key(K)] == It->first && D.ok() &&
               Range == It->second.Range;
      }
      if (!Same)
        fuzz::fail("a release's requirement numbers name other requirements",
                   "");
    }
    // The same numbers with one byte changed: whatever requirementIds()
    // gives lies within them.
    if (!Ids.empty()) {
      std::string Bad = Ids;
      Bad[Size % Bad.size()] ^= char(1 + In.size() % 255);
      std::optional<Manifest> Other = decodeManifestDeferred(
          std::make_shared<const std::string>(In.str()), "f.toml", "");
      if (Other && Other->Pkg && releaseNumbersFit(Bad, Rs.size())) {
        Other->Pkg->Releases.keepRequirementIds(Table, Bad);
        const ReleaseList &Os = std::as_const(Other->Pkg->Releases);
        for (size_t I = 0; I < Os.size(); ++I)
          if (std::optional<ReleaseList::RequirementNumbers> N =
                  Os.requirementIds(I))
            for (size_t K = 0; K < N->Count; ++K)
              if (N->Pairs < Bad.data() ||
                  N->Pairs + 8 * (K + 1) > Bad.data() + Bad.size())
                fuzz::fail("a release's numbers lie outside its manifest's",
                           "");
      }
    }
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
