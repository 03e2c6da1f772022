//===- NameIndex.h - names to their ids, in one flat array --------------===//
//
// The solver turns a package name into its id for every dependency it reads,
// the provider a requirement's name into what it names, the range memo a
// range's bytes into the set they encode: on a registry of thousands of
// packages, tens of thousands of lookups each. A node-based hash map reaches
// each name through a bucket and a node, each somewhere else in memory; here
// a lookup reads one slot of a flat array (the name's hash and id side by
// side) and then the name itself, in the caller's own list of names.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_SUPPORT_NAMEINDEX_H
#define CUDADEPS_CORE_SUPPORT_NAMEINDEX_H

#include <cstdint>
#include <functional>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

namespace cudadeps {

/// Names (kept by the caller, in Names, numbered from 0) to their ids:
/// open addressing with linear probing over a power-of-two array, each slot
/// the full hash and the id, so that a probe compares names only where the
/// hashes are equal.
template <class P> class NameIndex {
public:
  /// Package's id in Names, if it has been added. K may be another type
  /// than P, named (find<std::string_view>() for a std::string: no copy of
  /// the name), where std::hash gives both the same hash and they compare
  /// with ==.
  template <class K = P>
  std::optional<uint32_t> find(const std::type_identity_t<K> &Package,
                               const std::vector<P> &Names) const {
    if (Slots.empty())
      return std::nullopt;
    uint64_t Hash = std::hash<K>()(Package);
    for (size_t I = slotOf(Hash);; I = (I + 1) & (Slots.size() - 1)) {
      const Slot &S = Slots[I];
      if (S.Id == Empty)
        return std::nullopt;
      if (S.Hash == Hash && Names[S.Id] == Package)
        return S.Id;
    }
  }

  /// Package's id, added to Names (and to the index) on first sight, and
  /// whether it was added; K as for find().
  template <class K = P>
  std::pair<uint32_t, bool> intern(const std::type_identity_t<K> &Package,
                                   std::vector<P> &Names) {
    if (std::optional<uint32_t> Known = find<K>(Package, Names))
      return {*Known, false};
    uint32_t Id = uint32_t(Names.size());
    Names.emplace_back(Package);
    add(Names.back(), Id);
    return {Id, true};
  }

  /// Adds Package, not yet added, as Id.
  void add(const P &Package, uint32_t Id) {
    if ((Count + 1) * 2 > Slots.size())
      grow();
    place({hashOf(Package), Id});
    ++Count;
  }

private:
  static constexpr uint32_t Empty = ~uint32_t(0);
  struct Slot {
    uint64_t Hash = 0;
    uint32_t Id = Empty;
  };

  static uint64_t hashOf(const P &Package) { return std::hash<P>()(Package); }
  size_t slotOf(uint64_t Hash) const {
    // Fibonacci hashing: the top bits of the product, spread whatever the
    // hash's own low bits are.
    return size_t((Hash * 0x9e3779b97f4a7c15ull) >> Shift);
  }
  void place(Slot New) {
    size_t I = slotOf(New.Hash);
    while (Slots[I].Id != Empty)
      I = (I + 1) & (Slots.size() - 1);
    Slots[I] = New;
  }
  void grow() {
    std::vector<Slot> Old = std::move(Slots);
    Slots.assign(Old.empty() ? 64 : Old.size() * 2, Slot{});
    Shift = 64 - unsigned(__builtin_ctzll(Slots.size()));
    for (const Slot &S : Old)
      if (S.Id != Empty)
        place(S);
  }

  std::vector<Slot> Slots;
  unsigned Shift = 64;
  size_t Count = 0;
};

} // namespace cudadeps

#endif
