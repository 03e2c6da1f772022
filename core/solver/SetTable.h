//===- SetTable.h - the solver's version sets, each once ------------------===//
//
// The solver asks the same questions of the same sets over and over: every
// backjump undoes decisions that are then made again, and with them the same
// intersections and the same relations between what is known of a package
// and the terms about it. A SetTable interns sets (equal sets get one id,
// found by VS::hash()) and remembers, per pair of ids, the answers of the
// set operations the solver asks: a relation is then one table lookup, not
// a walk over two lists of intervals, and a combination is computed once.
// Every answer is the one the sets themselves give; ids only name them.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_SOLVER_SETTABLE_H
#define CUDADEPS_CORE_SOLVER_SETTABLE_H

#include "core/solver/Term.h"

#include "llvm/ADT/DenseMap.h"

#include <cassert>
#include <cstdint>
#include <utility>
#include <vector>

namespace cudadeps::solver {

/// An interned set: an index into a SetTable.
using SetId = uint32_t;

/// A term whose set is interned.
struct TermKey {
  SetId Set = 0;
  bool Positive = false;
  TermKey inverse() const { return {Set, !Positive}; }
};

/// DenseMap keys of 64 bits, hashed by mixing every bit into the low ones
/// (DenseMap's own hash of an integer multiplies it by 37, which leaves a
/// pair of ids in the high and low half colliding in long runs).
struct MixedKeyInfo {
  static uint64_t getEmptyKey() { return ~uint64_t(0); }
  static uint64_t getTombstoneKey() { return ~uint64_t(0) - 1; }
  static unsigned getHashValue(uint64_t X) {
    // The finalizer of MurmurHash3.
    X ^= X >> 33;
    X *= 0xff51afd7ed558ccdull;
    X ^= X >> 33;
    X *= 0xc4ceb9fe1a85ec53ull;
    X ^= X >> 33;
    return unsigned(X);
  }
  static bool isEqual(uint64_t A, uint64_t B) { return A == B; }
};

template <class VS> class SetTable {
public:
  /// The id of S, adding it on first sight.
  SetId intern(const VS &S) { return internImpl(S, S.hash()); }
  SetId intern(VS &&S) { return internImpl(std::move(S), S.hash()); }

  const VS &get(SetId Id) const { return Sets[Id]; }
  Term<VS> term(TermKey K) const {
    return Term<VS>::make(K.Positive, Sets[K.Set]);
  }
  size_t size() const { return Sets.size(); }

  /// {get(A) is a subset of get(B), they are disjoint}, computed once per
  /// pair.
  std::pair<bool, bool> subsetAndDisjoint(SetId A, SetId B) {
    uint8_t &R = Relations[pairKey(A, B)];
    if (!(R & Known)) {
      auto [Subset, Disjoint] = solver::subsetAndDisjoint(Sets[A], Sets[B]);
      R = Known | (Subset ? IsSubset : 0) | (Disjoint ? IsDisjoint : 0);
    }
    return {(R & IsSubset) != 0, (R & IsDisjoint) != 0};
  }

  /// Term::relation of the two terms.
  SetRelation relation(TermKey A, TermKey B) {
    return relationOf(
        A.Positive, B.Positive, [&] { return subsetAndDisjoint(A.Set, B.Set); },
        [&] { return subsetAndDisjoint(B.Set, A.Set).first; });
  }
  bool satisfies(TermKey A, TermKey B) {
    return relation(A, B) == SetRelation::Subset;
  }

  /// Term::intersect and Term::difference of the two terms, each
  /// combination of two sets computed once.
  TermKey intersect(TermKey A, TermKey B) {
    return apply(intersectPlan(A.Positive, B.Positive), A.Set, B.Set);
  }
  TermKey difference(TermKey A, TermKey B) {
    return apply(differencePlan(A.Positive, B.Positive), A.Set, B.Set);
  }

private:
  enum : uint8_t { Known = 1, IsSubset = 2, IsDisjoint = 4 };
  static uint64_t pairKey(SetId A, SetId B) {
    return uint64_t(A) << 32 | uint64_t(B);
  }

  template <class S> SetId internImpl(S &&Set, uint64_t Hash) {
    // DenseMap keeps the two largest keys for itself.
    if (Hash >= ~uint64_t(0) - 1)
      Hash -= 2;
    auto [It, Inserted] = FirstByHash.try_emplace(Hash, SetId(Sets.size()));
    if (!Inserted) {
      SetId Id = It->second;
      for (;;) {
        if (Sets[Id] == Set)
          return Id;
        if (NextSameHash[Id] == NoNext)
          break;
        Id = NextSameHash[Id];
      }
      NextSameHash[Id] = SetId(Sets.size());
    }
    assert(Sets.size() < NoNext && "too many sets");
    Sets.push_back(std::forward<S>(Set));
    NextSameHash.push_back(NoNext);
    return SetId(Sets.size() - 1);
  }

  TermKey apply(TermPlan Plan, SetId A, SetId B) {
    // Both minus orders are one operation with the operands swapped.
    if (Plan.Op == SetOp::MinusReversed) {
      std::swap(A, B);
      Plan.Op = SetOp::Minus;
    }
    SetId &Out = Combined[size_t(Plan.Op)][pairKey(A, B)];
    // 0 in the table is "not yet": ids are stored plus one.
    if (!Out)
      Out = intern(applySetOp(Plan.Op, Sets[A], Sets[B])) + 1;
    return {Out - 1, Plan.Positive};
  }

  static constexpr SetId NoNext = ~SetId(0);
  std::vector<VS> Sets;
  /// Per set: the next one with the same hash (a chain), or NoNext.
  std::vector<SetId> NextSameHash;
  llvm::DenseMap<uint64_t, SetId, MixedKeyInfo> FirstByHash;
  llvm::DenseMap<uint64_t, uint8_t, MixedKeyInfo> Relations;
  /// Per operation (Intersect, Union, Minus): the result of each pair.
  llvm::DenseMap<uint64_t, SetId, MixedKeyInfo> Combined[3];
};

} // namespace cudadeps::solver

#endif
