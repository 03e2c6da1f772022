#include "core/manifest/RequirementIds.h"

#include "core/support/BinaryCodec.h"

#include "llvm/Support/Endian.h"

#include <string_view>
#include <utility>

namespace cudadeps {

// The table's bytes: the keys, the ranges and the per-manifest numbers
// (RequirementTableBuilder::add()), each a count and then each element's
// bytes.

std::shared_ptr<const RequirementTable>
RequirementTable::read(std::shared_ptr<const std::string> Bytes) {
  if (!Bytes || Bytes->empty())
    return nullptr;
  auto T = std::make_shared<RequirementTable>();
  BinaryDecoder D(*Bytes, "");
  for (std::vector<llvm::StringRef> *List :
       {&T->Keys, &T->Ranges, &T->PerFile}) {
    size_t N = D.count();
    List->reserve(N);
    for (size_t I = 0; I < N && D.remaining(); ++I)
      List->push_back(D.bytes());
    if (List->size() != N)
      return nullptr;
  }
  if (!D.ok())
    return nullptr;
  T->Owner = std::move(Bytes);
  return T;
}

uint32_t RequirementTableBuilder::key(llvm::StringRef Key) {
  return KeyIndex
      .intern<std::string_view>(std::string_view(Key.data(), Key.size()), Keys)
      .first;
}

uint32_t RequirementTableBuilder::range(llvm::StringRef Bytes) {
  return RangeIndex
      .intern<std::string_view>(std::string_view(Bytes.data(), Bytes.size()),
                                Ranges)
      .first;
}

namespace {
/// A manifest's numbers as they are written: four bytes each.
class Words {
public:
  void put(uint32_t W) {
    Out.resize(Out.size() + 4);
    set(Out.size() / 4 - 1, W);
  }
  void set(size_t At, uint32_t W) {
    llvm::support::endian::write32le(&Out[4 * At], W);
  }
  std::string take() { return std::move(Out); }

private:
  std::string Out;
};
} // namespace

std::string RequirementTableBuilder::add(const Package &Pkg) {
  const ReleaseList &Rs = Pkg.Releases;
  // The count, the offsets (set as the pairs go), the pairs.
  Words W;
  W.put(uint32_t(Rs.size()));
  for (size_t I = 0; I <= Rs.size(); ++I)
    W.put(0);
  uint32_t Pairs = 0;
  for (size_t I = 0; I < Rs.size(); ++I) {
    const RequirementMap &Requires = Rs[I].Requires.get();
    bool Numbered = true;
    for (const auto &[Key, R] : Requires)
      Numbered &= R.Extras.empty();
    W.set(1 + I, Pairs | (Numbered ? 0 : NoRequirementIds));
    if (!Numbered)
      continue;
    for (const auto &[Key, R] : Requires) {
      BinaryEncoder Range("");
      Range(const_cast<VersionSet &>(R.Range));
      W.put(key(Key));
      W.put(range(Range.take()));
      ++Pairs;
    }
  }
  W.set(1 + Rs.size(), Pairs);
  return W.take();
}

std::optional<std::string>
RequirementTableBuilder::renumber(const RequirementTable &Old,
                                  llvm::StringRef Ids) {
  // The same words, each key and range number Old's in this table.
  uint32_t Releases = Ids.size() >= 4 ? requirementWord(Ids.data()) : 0;
  if (!releaseNumbersFit(Ids, Releases))
    return std::nullopt;
  std::string Out = Ids.str();
  for (size_t At = 4 * (Releases + 2); At < Ids.size(); At += 8) {
    uint32_t Key = requirementWord(Ids.data() + At),
             Range = requirementWord(Ids.data() + At + 4);
    if (Key >= Old.Keys.size() || Range >= Old.Ranges.size())
      return std::nullopt;
    llvm::support::endian::write32le(&Out[At], key(Old.Keys[Key]));
    llvm::support::endian::write32le(&Out[At + 4], range(Old.Ranges[Range]));
  }
  return Out;
}

std::string
RequirementTableBuilder::encode(const std::vector<std::string> &PerFile) const {
  BinaryEncoder E("");
  for (const std::vector<std::string> *List : {&Keys, &Ranges, &PerFile}) {
    E.varint(List->size());
    for (const std::string &S : *List)
      E.bytes(S);
  }
  return E.take();
}

bool releaseNumbersFit(llvm::StringRef Ids, size_t Releases) {
  // The count, N + 1 offsets, and the last offset's count of pairs.
  if (Ids.size() % 4 || Releases >= NoRequirementIds ||
      Ids.size() / 4 < Releases + 2 || requirementWord(Ids.data()) != Releases)
    return false;
  uint64_t Pairs = requirementWord(Ids.data() + 4 * (Releases + 1));
  return Ids.size() / 4 - (Releases + 2) == 2 * Pairs;
}

} // namespace cudadeps
