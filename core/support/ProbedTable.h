//===- ProbedTable.h - open addressing over one flat array ----------------===//
//
// The hash tables of the solver's hot paths: the answers it remembers for
// pairs of set ids, and the names it looks up for every dependency it reads.
// Open addressing with linear probing over a power-of-two array of slots,
// placed by one multiplication of a 64-bit hash (Fibonacci hashing): a
// lookup reads one slot, or a few side by side, where a general map's
// hashing, buckets and nodes cost more than the answer.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_SUPPORT_PROBEDTABLE_H
#define CUDADEPS_CORE_SUPPORT_PROBEDTABLE_H

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace cudadeps {

/// Traits says what a slot is: Slot, Traits::Empty (a slot holding no key),
/// Traits::key(Slot) (the 64-bit hash that places it). Where each key is
/// its own hash (the tables of id pairs), probe() finds it; where keys may
/// share a hash (names), probeFor() takes what else tells them apart.
template <class Traits> class ProbedTable {
protected:
  using Slot = typename Traits::Slot;
  static bool empty(const Slot &S) { return S == Traits::Empty; }

  /// From Hash's place on: the first slot Match accepts, or the empty one
  /// where the probe ends (where a new key goes); null while the table has
  /// no slots.
  template <class Match> Slot *probeFor(uint64_t Hash, Match M) {
    if (Slots.empty())
      return nullptr;
    for (size_t I = slotOf(Hash);; I = (I + 1) & (Slots.size() - 1))
      if (empty(Slots[I]) || M(Slots[I]))
        return &Slots[I];
  }
  template <class Match> const Slot *probeFor(uint64_t Hash, Match M) const {
    return const_cast<ProbedTable *>(this)->probeFor(Hash, M);
  }
  /// The slot holding Key (a key that is its own hash), or the empty one
  /// where it would go; null while the table has no slots.
  Slot *probe(uint64_t Key) {
    return probeFor(Key, [&](const Slot &S) { return Traits::key(S) == Key; });
  }
  /// Makes room for one more key (before probing for it to insert it).
  void reserveOne() {
    if ((Count + 1) * 2 <= Slots.size())
      return;
    std::vector<Slot> Old = std::move(Slots);
    Slots.assign(Old.empty() ? 1024 : Old.size() * 2, Traits::Empty);
    Shift = 64 - unsigned(__builtin_ctzll(Slots.size()));
    // Each into the first empty slot from its place (keys that share a
    // hash keep their order).
    for (const Slot &S : Old)
      if (!empty(S))
        *probeFor(Traits::key(S), [](const Slot &) { return false; }) = S;
  }
  /// Forgets every key; keeps the slots unless they are many (a table
  /// cleared often stays small).
  void clear() {
    if (Count == 0)
      return;
    if (Slots.size() > 65536) {
      Slots = {};
      Shift = 64;
    } else {
      std::fill(Slots.begin(), Slots.end(), Traits::Empty);
    }
    Count = 0;
  }
  size_t Count = 0;

private:
  size_t slotOf(uint64_t Hash) const {
    return size_t((Hash * 0x9e3779b97f4a7c15ull) >> Shift);
  }
  std::vector<Slot> Slots;
  unsigned Shift = 64;
};

} // namespace cudadeps

#endif
