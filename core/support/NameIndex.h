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
#include <cstring>
#include <functional>
#include <optional>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace cudadeps {

/// A hash of text for NameIndex: the bytes of a name or key of up to 32
/// bytes (nearly all: package names, a range's few bytes) read as at most
/// four words and mixed by two multiplications, inline; longer text by
/// std::hash, which is a call into the library for every name (the
/// provider hashes two keys per requirement it reads). Equal text hashes
/// alike whatever holds it.
inline uint64_t textHash(std::string_view S) {
  const char *P = S.data();
  const size_t N = S.size();
  auto Word = [](const char *At) {
    uint64_t W;
    std::memcpy(&W, At, 8);
    return W;
  };
  auto Mix = [](uint64_t A, uint64_t B) {
    __uint128_t M =
        __uint128_t(A ^ 0xa0761d6478bd642full) * (B ^ 0xe7037ed1a0b428dbull);
    return uint64_t(M) ^ uint64_t(M >> 64);
  };
  uint64_t A = 0, B = 0;
  if (N > 32)
    return std::hash<std::string_view>()(S);
  if (N > 16)
    return Mix(Word(P) ^ N, Word(P + 8)) ^
           Mix(Word(P + N - 16) ^ 0x8ebc6af09c88c6e3ull, Word(P + N - 8));
  if (N >= 8) {
    A = Word(P);
    B = Word(P + N - 8);
  } else if (N >= 4) {
    uint32_t X, Y;
    std::memcpy(&X, P, 4);
    std::memcpy(&Y, P + N - 4, 4);
    A = X;
    B = Y;
  } else if (N > 0) {
    A = uint64_t(uint8_t(P[0])) | uint64_t(uint8_t(P[N / 2])) << 8 |
        uint64_t(uint8_t(P[N - 1])) << 16;
  }
  return Mix(A ^ N, B);
}

/// Whether two texts are equal: a short one (up to 16 bytes) compared as
/// two overlapping words or halves, inline, where == calls memcmp.
inline bool textEqual(std::string_view L, std::string_view R) {
  const size_t N = L.size();
  if (N != R.size())
    return false;
  auto Same = [&](size_t At, auto Width) {
    decltype(Width) X, Y;
    std::memcpy(&X, L.data() + At, sizeof X);
    std::memcpy(&Y, R.data() + At, sizeof Y);
    return X == Y;
  };
  if (N >= 8 && N <= 16)
    return Same(0, uint64_t()) && Same(N - 8, uint64_t());
  if (N >= 4 && N < 8)
    return Same(0, uint32_t()) && Same(N - 4, uint32_t());
  return L == R;
}

/// The hash NameIndex files Key by: textHash() for text (a std::string and
/// a view of it hash alike), std::hash<K> for any other key.
template <class K> uint64_t nameHash(const K &Key) {
  if constexpr (std::is_convertible_v<const K &, std::string_view>)
    return textHash(std::string_view(Key));
  else
    return std::hash<K>()(Key);
}

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
  /// the name), where nameHash() gives both the same hash and they compare
  /// with ==.
  template <class K = P>
  std::optional<uint32_t> find(const std::type_identity_t<K> &Package,
                               const std::vector<P> &Names) const {
    uint64_t Hash = nameHash<K>(Package);
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
    uint64_t Hash = nameHash<K>(Package);
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
      if constexpr (std::is_convertible_v<const K &, std::string_view> &&
                    std::is_convertible_v<const P &, std::string_view>)
        return S.Hash == Hash && textEqual(Names[S.Id], Package);
      else
        return S.Hash == Hash && Names[S.Id] == Package;
    };
  }
};

} // namespace cudadeps

#endif
