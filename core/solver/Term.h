//===- Term.h - a PubGrub term: a statement about one package -------------===//
//
// A positive term "foo S" says that some version of foo in S is selected; a
// negative term "not foo S" says that no version of foo in S is selected
// (foo may be absent). Terms are generic over the version-set type VS, which
// must provide: VS::any(), VS::empty(), isEmpty(), isAny(), intersect(),
// unionWith(), minus(), isSubsetOf(), isDisjoint() and operator==, and
// may provide subsetAndDisjoint() (both answers in one walk).
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_SOLVER_TERM_H
#define CUDADEPS_CORE_SOLVER_TERM_H

#include <utility>

namespace cudadeps::solver {

/// How the versions allowed by one term relate to those of another.
enum class SetRelation {
  Subset,     // every version allowed by the first is allowed by the second
  Disjoint,   // no version allowed by the first is allowed by the second
  Overlapping // neither
};

template <class VS> class Term {
public:
  static Term positive(VS Set) { return Term(true, std::move(Set)); }
  static Term negative(VS Set) { return Term(false, std::move(Set)); }

  bool isPositive() const { return Positive; }
  const VS &set() const & { return Set; }
  VS set() && { return std::move(Set); }
  /// A positive term allowing nothing (the result of contradictory terms).
  bool isEmpty() const { return Positive && Set.isEmpty(); }

  Term inverse() const { return Term(!Positive, Set); }

  /// The versions allowed by both terms.
  Term intersect(const Term &O) const {
    if (Positive && O.Positive)
      return positive(Set.intersect(O.Set));
    if (Positive)
      return positive(Set.minus(O.Set));
    if (O.Positive)
      return positive(O.Set.minus(Set));
    return negative(Set.unionWith(O.Set));
  }

  /// The versions allowed by this term and not by O: intersect(O.inverse()),
  /// without copying O's set.
  Term difference(const Term &O) const {
    if (Positive)
      return positive(O.Positive ? Set.minus(O.Set) : Set.intersect(O.Set));
    if (!O.Positive)
      return positive(O.Set.minus(Set));
    return negative(Set.unionWith(O.Set));
  }

  /// The relation of this term (read as what is known) to O, following
  /// dart-lang/pub's Term.relation.
  SetRelation relation(const Term &O) const {
    if (O.Positive) {
      if (Positive) {
        auto [Subset, Disjoint] = subsetAndDisjoint(Set, O.Set);
        if (Subset)
          return SetRelation::Subset;
        if (Disjoint)
          return SetRelation::Disjoint;
        return SetRelation::Overlapping;
      }
      // "not S" always allows the package to be absent, so it is never a
      // subset of a positive term.
      if (O.Set.isSubsetOf(Set))
        return SetRelation::Disjoint;
      return SetRelation::Overlapping;
    }
    if (Positive) {
      auto [Subset, Disjoint] = subsetAndDisjoint(Set, O.Set);
      if (Disjoint)
        return SetRelation::Subset;
      if (Subset)
        return SetRelation::Disjoint;
      return SetRelation::Overlapping;
    }
    if (O.Set.isSubsetOf(Set))
      return SetRelation::Subset;
    return SetRelation::Overlapping;
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
  /// {A.isSubsetOf(B), A.isDisjoint(B)}: in one walk where VS offers it.
  static std::pair<bool, bool> subsetAndDisjoint(const VS &A, const VS &B) {
    if constexpr (requires { A.subsetAndDisjoint(B); })
      return A.subsetAndDisjoint(B);
    else
      return {A.isSubsetOf(B), A.isDisjoint(B)};
  }
  bool Positive;
  VS Set;
};

} // namespace cudadeps::solver

#endif
