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

#include "core/support/ProbedTable.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

namespace cudadeps {

struct NameSlot {
  uint64_t Hash = 0;
  uint32_t Id = ~uint32_t(0);
  bool operator==(const NameSlot &) const = default;
};
struct NameSlotTraits {
  using Slot = NameSlot;
  static constexpr Slot Empty{};
  static uint64_t key(const Slot &S) { return S.Hash; }
};

/// Names (kept by the caller, in Names, numbered from 0) to their ids: a
/// ProbedTable whose slots are each name's full hash and id, so that a
/// probe compares names only where the hashes are equal.
template <class P> class NameIndex : ProbedTable<NameSlotTraits> {
public:
  /// Package's id in Names, if it has been added. K may be another type
  /// than P, named (find<std::string_view>() for a std::string: no copy of
  /// the name), where std::hash gives both the same hash and they compare
  /// with ==.
  template <class K = P>
  std::optional<uint32_t> find(const std::type_identity_t<K> &Package,
                               const std::vector<P> &Names) const {
    uint64_t Hash = std::hash<K>()(Package);
    const NameSlot *S = probeFor(Hash, matching(Hash, Names, Package));
    if (!S || empty(*S))
      return std::nullopt;
    return S->Id;
  }

  /// Package's id, added to Names (and to the index) on first sight, and
  /// whether it was added; K as for find().
  template <class K = P>
  std::pair<uint32_t, bool> intern(const std::type_identity_t<K> &Package,
                                   std::vector<P> &Names) {
    uint64_t Hash = std::hash<K>()(Package);
    if (const NameSlot *S = probeFor(Hash, matching(Hash, Names, Package));
        S && !empty(*S))
      return {S->Id, false};
    uint32_t Id = uint32_t(Names.size());
    Names.emplace_back(Package);
    reserveOne(); // then the first empty slot from its place is its own
    *probeFor(Hash, [](const NameSlot &) { return false; }) = {Hash, Id};
    ++Count;
    return {Id, true};
  }

private:
  /// What tells Package's slot from others with its hash.
  template <class K>
  static auto matching(uint64_t Hash, const std::vector<P> &Names,
                       const K &Package) {
    return [Hash, &Names, &Package](const NameSlot &S) {
      return S.Hash == Hash && Names[S.Id] == Package;
    };
  }
};

} // namespace cudadeps

#endif
