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
#include "core/support/ProbedTable.h"

#include <cassert>
#include <cstdint>
#include <deque>
#include <utility>
#include <vector>

namespace cudadeps::solver {

/// An interned set: an index into a SetTable.
using SetId = uint32_t;

/// No set (e.g. what is known of a package with no assignment).
constexpr SetId NoSet = ~SetId(0);

/// A term whose set is interned.
struct TermKey {
  SetId Set = NoSet;
  bool Positive = false;
  TermKey inverse() const { return {Set, !Positive}; }
  bool operator==(const TermKey &) const = default;
};

template <class Value> struct KeyValueSlot {
  uint64_t Key;
  Value V;
  bool operator==(const KeyValueSlot &) const = default;
};
template <class Value> struct KeyValueTraits {
  using Slot = KeyValueSlot<Value>;
  static constexpr Slot Empty{~uint64_t(0), 0};
  static uint64_t key(const Slot &S) { return S.Key; }
};

/// A map from a pair of ids (one 64-bit key, below 2^64 - 1) to a small
/// value that is 0 until set.
template <class Value> class PairMap : ProbedTable<KeyValueTraits<Value>> {
  using Base = ProbedTable<KeyValueTraits<Value>>;

public:
  using Base::clear;

  /// The value of Key, 0 when it was never set; stays valid until the next
  /// call.
  Value &operator[](uint64_t Key) {
    Base::reserveOne();
    auto *S = Base::probe(Key);
    if (Base::empty(*S)) {
      S->Key = Key;
      ++Base::Count;
    }
    return S->V;
  }
};

struct PackedRelationTraits {
  using Slot = uint64_t;
  static constexpr Slot Empty = ~uint64_t(0);
  static uint64_t key(Slot S) { return S & ((uint64_t(1) << 60) - 1); }
};

/// The answers of subsetAndDisjoint() for pairs of ids below 2^30, each in
/// one word (the pair in 60 bits, the answer in the top 4): the table the
/// solver reads most, half the size of a PairMap, so more of it stays in
/// the caches.
class RelationMap : ProbedTable<PackedRelationTraits> {
public:
  static constexpr uint64_t MaxId = (uint64_t(1) << 30) - 2;
  /// The answer bits of (A, B), 0 when never set.
  uint8_t get(uint32_t A, uint32_t B) {
    const uint64_t *S = probe(keyOf(A, B));
    return S && !empty(*S) ? uint8_t(*S >> 60) : 0;
  }
  /// Sets the answer bits of (A, B), which were never set (non-zero).
  void set(uint32_t A, uint32_t B, uint8_t Bits) {
    reserveOne();
    uint64_t Key = keyOf(A, B);
    *probe(Key) = Key | uint64_t(Bits) << 60;
    ++Count;
  }

private:
  static uint64_t keyOf(uint32_t A, uint32_t B) {
    assert(A <= MaxId && B <= MaxId && "set id beyond the relation map");
    return uint64_t(A) << 30 | uint64_t(B);
  }
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

  /// {get(A) is a subset of get(B), they are disjoint}, computed once per
  /// pair.
  std::pair<bool, bool> subsetAndDisjoint(SetId A, SetId B) {
    uint8_t R = Relations.get(A, B);
    if (!R) {
      auto [Subset, Disjoint] = solver::subsetAndDisjoint(Sets[A], Sets[B]);
      R = Known | (Subset ? IsSubset : 0) | (Disjoint ? IsDisjoint : 0);
      Relations.set(A, B, R);
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
    // PairMap keeps the largest key for itself.
    if (Hash == ~uint64_t(0))
      --Hash;
    SetId &First = FirstByHash[Hash];
    if (!First) {
      First = SetId(Sets.size()) + 1;
    } else {
      SetId Id = First - 1;
      for (;;) {
        if (Sets[Id] == Set)
          return Id;
        if (NextSameHash[Id] == NoNext)
          break;
        Id = NextSameHash[Id];
      }
      NextSameHash[Id] = SetId(Sets.size());
    }
    assert(Sets.size() <= RelationMap::MaxId && "too many sets");
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

  static constexpr SetId NoNext = NoSet;
  /// A deque: references to sets stay valid while more are added.
  std::deque<VS> Sets;
  /// Per set: the next one with the same hash (a chain), or NoNext.
  std::vector<SetId> NextSameHash;
  /// Per hash of a set: the first set with that hash, plus one.
  PairMap<SetId> FirstByHash;
  RelationMap Relations;
  /// Per operation (Intersect, Union, Minus): the result of each pair, plus
  /// one.
  PairMap<SetId> Combined[3];
};

} // namespace cudadeps::solver

#endif
