//===- PartialSolution.h - the solver's current assignments ---------------===//
//
// An ordered list of assignments: decisions (a package pinned to a version,
// each opening a new decision level) and derivations (terms implied by an
// incompatibility and earlier assignments). Packages are the solver's
// interned ids (0, 1, 2, ...), so every per-package lookup is an index. For
// each package it keeps the intersection of its assignments (so the relation
// between the solution and a term is one set operation), its own assignments
// in order (so finding a satisfier scans only those) and a generation that
// changes whenever that intersection does (so callers can cache what they
// compute from it). Backtracking drops every assignment above a decision
// level and recomputes only the packages it touched.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_SOLVER_PARTIALSOLUTION_H
#define CUDADEPS_CORE_SOLVER_PARTIALSOLUTION_H

#include "core/solver/Incompatibility.h"
#include "core/solver/Term.h"

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace cudadeps::solver {

/// An interned package: an index into the solver's tables.
using PackageId = uint32_t;

template <class V, class VS> class PartialSolution {
public:
  using TermT = Term<VS>;

  struct Assignment {
    PackageId Package;
    TermT T;
    unsigned Level;
    unsigned Index;
    /// The incompatibility it was derived from; empty for a decision.
    std::optional<IncompId> Cause;
    bool isDecision() const { return !Cause.has_value(); }
  };

  struct PackageState {
    /// The intersection of the package's assignments; empty when none.
    std::optional<TermT> Known;
    std::optional<V> Decision;
    /// Indices of the package's assignments, in order.
    std::vector<unsigned> Own;
    /// Changes whenever Known does.
    uint64_t Generation = 0;
    bool InOrder = false;
    bool Touched = false;
  };

  /// Makes room for packages 0..N-1.
  void ensure(size_t N) {
    if (States.size() < N)
      States.resize(N);
  }

  /// The number of decisions made so far.
  unsigned decisionLevel() const { return DecisionCount; }

  const std::vector<Assignment> &assignments() const { return Assignments; }
  const PackageState &state(PackageId P) const { return States[P]; }
  bool decided(PackageId P) const {
    return P < States.size() && States[P].Decision.has_value();
  }

  /// Packages in the order they first became positive (pub's map order);
  /// decided ones included.
  const std::vector<PackageId> &positiveOrder() const { return PositiveOrder; }

  /// The decisions, in the order they were made.
  std::vector<std::pair<PackageId, V>> decisions() const {
    std::vector<std::pair<PackageId, V>> Out;
    for (const Assignment &A : Assignments)
      if (A.isDecision())
        Out.emplace_back(A.Package, *States[A.Package].Decision);
    return Out;
  }

  void decide(PackageId Package, const V &Version) {
    ensure(Package + 1);
    States[Package].Decision = Version;
    ++DecisionCount;
    assign(Assignment{Package, TermT::positive(VS::exactly(Version)),
                      decisionLevel(), unsigned(Assignments.size()),
                      std::nullopt});
  }

  void derive(PackageId Package, TermT T, IncompId Cause) {
    ensure(Package + 1);
    assign(Assignment{Package, std::move(T), decisionLevel(),
                      unsigned(Assignments.size()), Cause});
  }

  /// Removes every assignment made above decision level Level.
  void backtrack(unsigned Level) {
    std::vector<PackageId> Touched;
    while (!Assignments.empty() && Assignments.back().Level > Level) {
      const Assignment &A = Assignments.back();
      PackageState &S = States[A.Package];
      if (!S.Touched) {
        S.Touched = true;
        Touched.push_back(A.Package);
      }
      if (A.isDecision()) {
        S.Decision.reset();
        --DecisionCount;
      }
      S.Own.pop_back();
      Assignments.pop_back();
    }
    if (Touched.empty())
      return;
    PositiveOrder.erase(std::remove_if(PositiveOrder.begin(),
                                       PositiveOrder.end(),
                                       [&](PackageId P) {
                                         return States[P].Touched;
                                       }),
                        PositiveOrder.end());
    // Replay each touched package's remaining assignments; they re-enter
    // the order where they become positive again, as a replay of the whole
    // list would put them.
    std::vector<std::pair<unsigned, PackageId>> Reenter;
    for (PackageId P : Touched) {
      PackageState &S = States[P];
      S.Touched = false;
      S.Known.reset();
      S.InOrder = false;
      ++S.Generation;
      for (unsigned Index : S.Own) {
        combine(S, Assignments[Index].T);
        if (!S.InOrder && S.Known->isPositive()) {
          S.InOrder = true;
          Reenter.emplace_back(Index, P);
        }
      }
    }
    std::sort(Reenter.begin(), Reenter.end());
    for (const auto &[Index, P] : Reenter)
      PositiveOrder.push_back(P);
  }

  /// The relation between what the solution knows about T's package and T.
  SetRelation relation(PackageId Package, const TermT &T) const {
    if (Package >= States.size() || !States[Package].Known)
      return SetRelation::Overlapping;
    return States[Package].Known->relation(T);
  }

  bool satisfies(PackageId Package, const TermT &T) const {
    return relation(Package, T) == SetRelation::Subset;
  }

  /// The earliest assignment such that the assignments up to and including
  /// it satisfy T. T must be satisfied by the solution.
  const Assignment &satisfier(PackageId Package, const TermT &T) const {
    std::optional<TermT> Accumulated;
    for (unsigned Index : States[Package].Own) {
      const Assignment &A = Assignments[Index];
      Accumulated = Accumulated ? Accumulated->intersect(A.T) : A.T;
      if (Accumulated->satisfies(T))
        return A;
    }
    assert(false && "term is not satisfied by the partial solution");
    return Assignments.back();
  }

private:
  void assign(Assignment A) {
    PackageState &S = States[A.Package];
    S.Own.push_back(A.Index);
    Assignments.push_back(std::move(A));
    combine(S, Assignments.back().T);
    ++S.Generation;
    if (!S.InOrder && S.Known->isPositive()) {
      S.InOrder = true;
      PositiveOrder.push_back(Assignments.back().Package);
    }
  }

  static void combine(PackageState &S, const TermT &T) {
    if (!S.Known)
      S.Known = T;
    else if (S.Known->isPositive())
      S.Known = S.Known->intersect(T);
    else
      S.Known = T.intersect(*S.Known);
  }

  std::vector<Assignment> Assignments;
  std::vector<PackageState> States;
  std::vector<PackageId> PositiveOrder;
  unsigned DecisionCount = 0;
};

} // namespace cudadeps::solver

#endif
