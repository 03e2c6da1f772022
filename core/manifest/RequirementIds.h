//===- RequirementIds.h - a registry's requirements as numbers ------------===//
//
// What the solver reads of a cached release (its requirements' keys and
// ranges) as two numbers each: indices into a table of the distinct keys
// and ranges of a whole registry directory. The registry writes the table
// into its load cache file beside the manifests (LoadCacheContents::
// Combined), remade from the manifests each time that file is written, and
// gives each manifest loaded from the cache its releases' numbers
// (ReleaseList::requirementIds()). The provider then decodes each key and
// range once per directory, not once per requirement read (a generated
// 2,000-package registry's 88,167 requirements name 2,000 keys and 211
// ranges).
//
// The table and the numbers are derived data: bytes that do not read as
// them are never an error, the releases are then read as before.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_MANIFEST_REQUIREMENTIDS_H
#define CUDADEPS_CORE_MANIFEST_REQUIREMENTIDS_H

#include "core/manifest/Manifest.h"
#include "core/support/NameIndex.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cudadeps {

/// A directory's distinct requirement keys and ranges (the ranges as their
/// encoded bytes, as BinaryCodec writes a VersionSet), and per manifest of
/// the directory (by its entry in the load cache) the bytes of its
/// releases' numbers (RequirementTableBuilder::add()); views into what
/// Owner keeps.
struct RequirementTable {
  std::shared_ptr<const void> Owner;
  std::vector<llvm::StringRef> Keys, Ranges, PerFile;

  /// The table \p Bytes hold (what RequirementTableBuilder::encode()
  /// wrote); null when they do not decode.
  static std::shared_ptr<const RequirementTable>
  read(std::shared_ptr<const std::string> Bytes);
};

/// Makes a table and each manifest's numbers into it.
class RequirementTableBuilder {
public:
  /// The numbers of the releases of \p Pkg, each key and range numbered
  /// here: per release, its requirements in their map's order, or none
  /// (read the old way) where one of them names extras. Four bytes each
  /// (little-endian), read in place: its count of releases N, then N + 1
  /// offsets into the pairs that follow (release I's pairs are from its
  /// offset to the next one's; NoRequirementIds set in a release's offset:
  /// it has none), then the (key, range) pairs.
  std::string add(const Package &Pkg);
  /// Numbers \p Ids, written against \p Old, in this table; nullopt when
  /// they do not read.
  std::optional<std::string> renumber(const RequirementTable &Old,
                                      llvm::StringRef Ids);
  /// The table with \p PerFile, each manifest's numbers by entry.
  std::string encode(const std::vector<std::string> &PerFile) const;

private:
  uint32_t key(llvm::StringRef Key);
  uint32_t range(llvm::StringRef Bytes);

  std::vector<std::string> Keys, Ranges;
  NameIndex<std::string> KeyIndex, RangeIndex;
};

/// Whether \p Ids, a manifest's numbers, are words for \p Releases
/// releases: its count of releases is that, and its bytes hold the count,
/// the offsets and as many pairs as the last offset says
/// (ReleaseList::keepRequirementIds() keeps them then). Each offset is
/// checked where it is read (ReleaseList::requirementIds()), each number
/// against the table where the provider reads it.
bool releaseNumbersFit(llvm::StringRef Ids, size_t Releases);

} // namespace cudadeps

#endif
