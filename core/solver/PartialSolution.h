//===- PartialSolution.h - the solver's current assignments ---------------===//
//
// An ordered list of assignments: decisions (a package pinned to a version,
// each opening a new decision level) and derivations (terms implied by an
// incompatibility and earlier assignments). For each package it keeps the
// intersection of its assignments, so that the relation between the solution
// and any term is cheap to compute. Backtracking drops every assignment above
// a decision level.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_SOLVER_PARTIALSOLUTION_H
#define CUDADEPS_CORE_SOLVER_PARTIALSOLUTION_H

#include "core/solver/Incompatibility.h"
#include "core/solver/Term.h"

#include <algorithm>
#include <cassert>
#include <map>
#include <optional>
#include <vector>

namespace cudadeps::solver {

template <class P, class V, class VS> class PartialSolution {
public:
  using TermT = Term<VS>;

  struct Assignment {
    P Package;
    TermT T;
    unsigned Level;
    unsigned Index;
    /// The incompatibility it was derived from; empty for a decision.
    std::optional<IncompId> Cause;
    bool isDecision() const { return !Cause.has_value(); }
  };

  /// The number of decisions made so far.
  unsigned decisionLevel() const { return Decisions.size(); }

  const std::map<P, V> &decisions() const { return Decisions; }
  const std::vector<Assignment> &assignments() const { return Assignments; }

  void decide(const P &Package, const V &Version) {
    Decisions.emplace(Package, Version);
    assign(Assignment{Package, TermT::positive(VS::exactly(Version)),
                      decisionLevel(), unsigned(Assignments.size()),
                      std::nullopt});
  }

  void derive(const P &Package, TermT T, IncompId Cause) {
    assign(Assignment{Package, std::move(T), decisionLevel(),
                      unsigned(Assignments.size()), Cause});
  }

  /// Packages with a positive assignment but no decision yet, in the order
  /// they became positive; each with the versions still allowed.
  std::vector<std::pair<P, VS>> unsatisfied() const {
    std::vector<std::pair<P, VS>> Out;
    for (const P &Package : PositiveOrder)
      if (!Decisions.count(Package))
        Out.emplace_back(Package, Positive.at(Package).set());
    return Out;
  }

  /// Removes every assignment made above decision level Level.
  void backtrack(unsigned Level) {
    std::vector<P> Touched;
    while (!Assignments.empty() && Assignments.back().Level > Level) {
      const Assignment &A = Assignments.back();
      if (std::find(Touched.begin(), Touched.end(), A.Package) ==
          Touched.end())
        Touched.push_back(A.Package);
      if (A.isDecision())
        Decisions.erase(A.Package);
      Assignments.pop_back();
    }
    for (const P &Package : Touched) {
      Positive.erase(Package);
      Negative.erase(Package);
      PositiveOrder.erase(
          std::remove(PositiveOrder.begin(), PositiveOrder.end(), Package),
          PositiveOrder.end());
    }
    for (const Assignment &A : Assignments)
      if (std::find(Touched.begin(), Touched.end(), A.Package) !=
          Touched.end())
        registerAssignment(A);
  }

  /// The relation between what the solution knows about T's package and T.
  SetRelation relation(const P &Package, const TermT &T) const {
    auto PosIt = Positive.find(Package);
    if (PosIt != Positive.end())
      return PosIt->second.relation(T);
    auto NegIt = Negative.find(Package);
    if (NegIt != Negative.end())
      return NegIt->second.relation(T);
    return SetRelation::Overlapping;
  }

  bool satisfies(const P &Package, const TermT &T) const {
    return relation(Package, T) == SetRelation::Subset;
  }

  /// The earliest assignment such that the assignments up to and including
  /// it satisfy T. T must be satisfied by the solution.
  const Assignment &satisfier(const P &Package, const TermT &T) const {
    std::optional<TermT> Accumulated;
    for (const Assignment &A : Assignments) {
      if (!(A.Package == Package))
        continue;
      Accumulated = Accumulated ? Accumulated->intersect(A.T) : A.T;
      if (Accumulated->satisfies(T))
        return A;
    }
    assert(false && "term is not satisfied by the partial solution");
    return Assignments.back();
  }

private:
  void assign(Assignment A) {
    Assignments.push_back(std::move(A));
    registerAssignment(Assignments.back());
  }

  void registerAssignment(const Assignment &A) {
    auto PosIt = Positive.find(A.Package);
    if (PosIt != Positive.end()) {
      PosIt->second = PosIt->second.intersect(A.T);
      return;
    }
    auto NegIt = Negative.find(A.Package);
    TermT Combined = NegIt == Negative.end() ? A.T : A.T.intersect(NegIt->second);
    if (Combined.isPositive()) {
      if (NegIt != Negative.end())
        Negative.erase(NegIt);
      Positive.emplace(A.Package, std::move(Combined));
      PositiveOrder.push_back(A.Package);
    } else if (NegIt != Negative.end()) {
      NegIt->second = std::move(Combined);
    } else {
      Negative.emplace(A.Package, std::move(Combined));
    }
  }

  std::vector<Assignment> Assignments;
  std::map<P, V> Decisions;
  /// Intersection of all assignments of a package once one is positive.
  std::map<P, TermT> Positive;
  /// The order in which packages first became positive (pub's map order).
  std::vector<P> PositiveOrder;
  /// Intersection of the (all negative) assignments of other packages.
  std::map<P, TermT> Negative;
};

} // namespace cudadeps::solver

#endif
