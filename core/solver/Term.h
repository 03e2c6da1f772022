//===- Term.h - a PubGrub term: a statement about one package -------------===//
//
// A positive term "foo S" says that some version of foo in S is selected; a
// negative term "not foo S" says that no version of foo in S is selected
// (foo may be absent). Terms are generic over the version-set type VS, which
// must provide: VS::any(), VS::empty(), isEmpty(), isAny(), intersect(),
// unionWith(), minus(), isSubsetOf(), isDisjoint() and operator==, and
// may provide subsetAndDisjoint() (both answers in one walk). The solver
// also interns sets (SetTable.h), which needs hash().
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_SOLVER_TERM_H
#define CUDADEPS_CORE_SOLVER_TERM_H

#include <cstdint>
#include <utility>

namespace cudadeps::solver {

/// How the versions allowed by one term relate to those of another.
enum class SetRelation : uint8_t {
  Subset,     // every version allowed by the first is allowed by the second
  Disjoint,   // no version allowed by the first is allowed by the second
  Overlapping // neither
};

/// How a term operation (Term::intersect, Term::difference) builds its
/// result from the two terms' sets A (this one's) and B (the other's): the
/// result's polarity and the set operation. Shared by Term and by the
/// solver's table of interned sets (SetTable.h), which must give the same
/// sets as the terms would.
enum class SetOp {
  Intersect,
  Union,
  Minus /* A \ B */,
  MinusReversed /* B \ A */
};
struct TermPlan {
  bool Positive;
  SetOp Op;
};

/// The versions allowed by both terms (positive A, positive B, ...).
inline TermPlan intersectPlan(bool APositive, bool BPositive) {
  if (APositive && BPositive)
    return {true, SetOp::Intersect};
  if (APositive)
    return {true, SetOp::Minus};
  if (BPositive)
    return {true, SetOp::MinusReversed};
  return {false, SetOp::Union};
}

/// The versions allowed by A and not by B.
inline TermPlan differencePlan(bool APositive, bool BPositive) {
  if (APositive)
    return {true, BPositive ? SetOp::Minus : SetOp::Intersect};
  if (!BPositive)
    return {true, SetOp::MinusReversed};
  return {false, SetOp::Union};
}

/// The relation of a term with set A (read as what is known) to one with
/// set B, following dart-lang/pub's Term.relation, given
/// SubsetAndDisjoint() = {A is a subset of B, A and B are disjoint} and
/// BInA() = B is a subset of A (each asked only where needed).
template <class SD, class Sub>
SetRelation relationOf(bool APositive, bool BPositive, SD SubsetAndDisjoint,
                       Sub BInA) {
  if (BPositive) {
    if (APositive) {
      auto [Subset, Disjoint] = SubsetAndDisjoint();
      if (Subset)
        return SetRelation::Subset;
      if (Disjoint)
        return SetRelation::Disjoint;
      return SetRelation::Overlapping;
    }
    // "not A" always allows the package to be absent, so it is never a
    // subset of a positive term.
    if (BInA())
      return SetRelation::Disjoint;
    return SetRelation::Overlapping;
  }
  if (APositive) {
    auto [Subset, Disjoint] = SubsetAndDisjoint();
    if (Disjoint)
      return SetRelation::Subset;
    if (Subset)
      return SetRelation::Disjoint;
    return SetRelation::Overlapping;
  }
  if (BInA())
    return SetRelation::Subset;
  return SetRelation::Overlapping;
}

/// {A.isSubsetOf(B), A.isDisjoint(B)}: in one walk where VS offers it.
template <class VS>
std::pair<bool, bool> subsetAndDisjoint(const VS &A, const VS &B) {
  if constexpr (requires { A.subsetAndDisjoint(B); })
    return A.subsetAndDisjoint(B);
  else
    return {A.isSubsetOf(B), A.isDisjoint(B)};
}

/// Applies a plan's set operation to A and B.
template <class VS> VS applySetOp(SetOp Op, const VS &A, const VS &B) {
  switch (Op) {
  case SetOp::Intersect:
    return A.intersect(B);
  case SetOp::Union:
    return A.unionWith(B);
  case SetOp::Minus:
    return A.minus(B);
  case SetOp::MinusReversed:
    return B.minus(A);
  }
  return A.intersect(B);
}

template <class VS> class Term {
public:
  static Term positive(VS Set) { return Term(true, std::move(Set)); }
  static Term negative(VS Set) { return Term(false, std::move(Set)); }
  static Term make(bool Positive, VS Set) {
    return Term(Positive, std::move(Set));
  }

  bool isPositive() const { return Positive; }
  const VS &set() const & { return Set; }
  VS set() && { return std::move(Set); }
  /// A positive term allowing nothing (the result of contradictory terms).
  bool isEmpty() const { return Positive && Set.isEmpty(); }

  Term inverse() const { return Term(!Positive, Set); }

  /// The versions allowed by both terms.
  Term intersect(const Term &O) const {
    TermPlan Plan = intersectPlan(Positive, O.Positive);
    return Term(Plan.Positive, applySetOp(Plan.Op, Set, O.Set));
  }

  /// The versions allowed by this term and not by O: intersect(O.inverse()),
  /// without copying O's set.
  Term difference(const Term &O) const {
    TermPlan Plan = differencePlan(Positive, O.Positive);
    return Term(Plan.Positive, applySetOp(Plan.Op, Set, O.Set));
  }

  /// The relation of this term (read as what is known) to O, following
  /// dart-lang/pub's Term.relation.
  SetRelation relation(const Term &O) const {
    return relationOf(
        Positive, O.Positive, [&] { return subsetAndDisjoint(Set, O.Set); },
        [&] { return O.Set.isSubsetOf(Set); });
  }

  /// Whether knowing this term implies O.
  bool satisfies(const Term &O) const {
    return relation(O) == SetRelation::Subset;
  }

  bool operator==(const Term &O) const {
    return Positive == O.Positive && Set == O.Set;
  }

private:
  Term(bool Positive, VS Set) : Positive(Positive), Set(std::move(Set)) {}
  bool Positive;
  VS Set;
};

} // namespace cudadeps::solver

#endif
