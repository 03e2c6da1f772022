//===- ManifestCodec.h - a validated manifest as bytes, and back ----------===//
//
// What the load cache (core/support/LoadCache.h) keeps of a registry
// manifest: the Manifest exactly as loadManifest() returned it (source text,
// warnings and every location included), so that a cached manifest and a
// parsed one are the same to everything that uses them.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_MANIFEST_MANIFESTCODEC_H
#define CUDADEPS_CORE_MANIFEST_MANIFESTCODEC_H

#include "core/manifest/Manifest.h"
#include "core/support/NameIndex.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cudadeps {

std::string encodeManifest(const Manifest &M);

/// The manifest \p Blob holds, as loaded from \p File (its File and the
/// locations in it name \p File); nullopt when \p Blob is not a whole
/// encoded manifest. Never crashes on any bytes.
std::optional<Manifest> decodeManifest(llvm::StringRef Blob,
                                       llvm::StringRef File);

/// The same for a blob this build wrote into the load cache file
/// \p CacheFile (its checksum and program identity matched): each
/// release but its version is kept as bytes and decoded when the release
/// is first read (ReleaseList), and its requirements when they are first
/// read (Deferred.h); the source text stays a view. \p Blob stays alive as
/// long as any of them. Bytes that then do not decode end the command.
std::optional<Manifest>
decodeManifestDeferred(std::shared_ptr<const std::string> Blob,
                       llvm::StringRef File, const SourcePath &CacheFile);
/// The same for the bytes \p Blob that \p Owner keeps alive.
std::optional<Manifest>
decodeManifestDeferred(std::shared_ptr<const void> Owner, llvm::StringRef Blob,
                       llvm::StringRef File, const SourcePath &CacheFile);

/// A requirement as the solver reads it: its key, range and extras, the
/// strings views of the bytes they were read from.
struct RequirementRange {
  llvm::StringRef Key;
  VersionSet Range;
  llvm::SmallVector<llvm::StringRef, 1> Extras;
  /// Read with a RangeMemo: the range, the memo's (Range is left empty),
  /// and its number there (SharedId).
  const VersionSet *Shared = nullptr;
  uint32_t SharedId = 0;
  const VersionSet &range() const { return Shared ? *Shared : Range; }
};

/// Ranges decoded once each, by their encoded bytes: a registry's
/// requirements repeat a few ranges many times (the generated 2,000-package
/// registry's 88,167 name 211). The sets stay where they are while the memo
/// lives (a deque).
class RangeMemo {
public:
  /// The range \p Bytes encode, decoded the first time; null when they do
  /// not decode. With \p Id, its number: the distinct bytes numbered from
  /// 0 as first seen (a caller's table of what it makes of each range is
  /// then an array).
  const VersionSet *decode(llvm::StringRef Bytes, const SourcePath &File,
                           uint32_t *Id = nullptr);

private:
  /// Each range's bytes, and what they decode to, by the same index.
  std::vector<std::string> Keys;
  std::deque<std::optional<VersionSet>> Decoded;
  NameIndex<std::string> Index;
};

/// Reads the keys, ranges and extras of the requirements \p Requires, left
/// encoded, as its decode would (RequirementMap's order), without the
/// rest (texts, locations): appended to \p Out, the views into
/// Requires' bytes. With \p Memo, each range is the memo's (Shared). False
/// when the bytes do not decode.
bool readRequirementRanges(const Deferred<RequirementMap>::Encoded &Requires,
                           std::vector<RequirementRange> &Out,
                           RangeMemo *Memo = nullptr);

/// The requirements of a release kept as bytes (ReleaseList::keptBody()),
/// found without decoding the release: the bytes of its Requires, as a
/// Deferred keeps them. False when the fields before them do not decode.
bool readReleaseRequires(const ReleaseList::KeptBody &Body,
                         Deferred<RequirementMap>::Encoded &Out);

} // namespace cudadeps

#endif
