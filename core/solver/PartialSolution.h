//===- PartialSolution.h - the solver's current assignments ---------------===//
//
// An ordered list of assignments: decisions (a package pinned to a version,
// each opening a new decision level) and derivations (terms implied by an
// incompatibility and earlier assignments). Packages are the solver's
// interned ids (0, 1, 2, ...), so every per-package lookup is an index. Each
// assignment keeps the intersection of its package's assignments up to and
// including it, so what the solution knows of a package is its last
// assignment's (the relation between the solution and a term is one set
// operation), the satisfier of a term is found by binary search over the
// package's own assignments (those intersections only narrow) without
// building any set, and backtracking only drops assignments: the ones left
// still hold their intersections (a run of derivations may leave theirs to
// be computed where they are read, the last one's given by the caller:
// derivePending()). Each package carries a generation, a
// stamp that is new whenever what is known of it changes and unique over the
// life of the solution, across restart(), so callers can cache what they
// compute from it; 0 means no assignment in this search. The packages whose
// generation changed are listed for the solver (changed()), which keeps its
// choice of the next package up to date from them instead of looking at
// every open package at each decision. The sets of what is known are
// interned in the solution's SetTable (sets()), which the solver shares for
// the terms of its incompatibilities: relations and intersections between
// them are asked by id and computed once per pair.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_SOLVER_PARTIALSOLUTION_H
#define CUDADEPS_CORE_SOLVER_PARTIALSOLUTION_H

#include "core/solver/Incompatibility.h"
#include "core/solver/SetTable.h"
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
  struct Assignment {
    PackageId Package;
    unsigned Level;
    unsigned Index;
    /// The incompatibility it was derived from; empty for a decision.
    std::optional<IncompId> Cause;
    /// The lowest level from which what is known of its package with it
    /// holds, as far as the solver tracks it (Solver::Chronological): at
    /// most Level, lower for a derivation made above the level of its
    /// premises; never lower than its package's earlier assignments'.
    unsigned HoldsFrom;
    /// The intersection of the term assigned and the package's earlier
    /// assignments, by its set in sets() (the "accumulated" term). The term
    /// itself is not kept: a decision's is this, a derivation's the inverse
    /// of its package's term in Cause.
    SetId Set;
    bool Positive;
    /// A derivation whose accumulated term is not computed yet
    /// (derivePending()): Set is then the positive term of its cause whose
    /// inverse it assigns, and the accumulated term is computed where it is
    /// read (the satisfier's search, or settle() for the last one).
    bool Pending = false;
    /// Unique over the life of the solution (a generation of its package):
    /// whether the assignment at a place on the trail is still this one
    /// (holds()).
    uint64_t Stamp;
    TermKey key() const {
      assert(!Pending && "a pending assignment's term is computed first");
      return {Set, Positive};
    }
    bool isDecision() const { return !Cause.has_value(); }
  };

  struct PackageState {
    std::optional<V> Decision;
    /// Indices of the package's assignments, in order.
    std::vector<unsigned> Own;
    bool InOrder = false;
    bool Touched = false;
  };

  /// Empties the solution for another search, keeping its memory. The
  /// clock goes on, so that what callers cached from the stamps of the
  /// previous search is never taken for this one's. Only the packages that
  /// search assigned have anything to reset (a query assigns a few dozen of
  /// thousands).
  void restart() {
    Assignments.clear();
    for (PackageId P : Assigned) {
      PackageState &S = States[P];
      S.Decision.reset();
      S.Own.clear();
      S.InOrder = S.Touched = false;
      Generations[P] = 0;
      Decided[P] = 0;
      Stamps[P] = 0;
    }
    Assigned.clear();
    clearChanged();
    DecisionCount = 0;
    assert(std::all_of(Generations.begin(), Generations.end(),
                       [](uint64_t G) { return G == 0; }) &&
           std::all_of(Stamps.begin(), Stamps.end(),
                       [](uint64_t S) { return S == 0; }) &&
           std::all_of(Decided.begin(), Decided.end(),
                       [](uint8_t D) { return D == 0; }) &&
           "a package assigned was left out of Assigned");
  }

  /// Makes room for packages 0..N-1.
  void ensure(size_t N) {
    if (States.size() < N) {
      States.resize(N);
      Generations.resize(N, 0);
      Decided.resize(N, 0);
      Stamps.resize(N, 0);
      IsChanged.resize(N, 0);
    }
  }

  /// The table of the sets of what is known, for the solver's terms too.
  SetTable<VS> &sets() { return Sets; }

  /// The number of decisions made so far.
  unsigned decisionLevel() const { return DecisionCount; }

  const std::vector<Assignment> &assignments() const { return Assignments; }
  const PackageState &state(PackageId P) const { return States[P]; }
  /// A new stamp whenever what is known of P changes; 0 before any assignment
  /// (kept apart from the states, so that scans over many packages stay
  /// compact).
  uint64_t generation(PackageId P) const { return Generations[P]; }
  /// What is known of P (the intersection of its assignments), by its set:
  /// the term is that set, positive or negative as knownKey(P) says. P must
  /// have an assignment. The reference stays valid while sets are added.
  const VS &knownSet(PackageId P) const { return Sets.get(knownKey(P).Set); }
  /// The last assignment of P, which holds what is known of it; P must have
  /// one.
  const Assignment &last(PackageId P) const {
    return Assignments[States[P].Own.back()];
  }
  /// Whether the assignment at place Index on the trail is still the one
  /// stamped Stamp (no backtrack has removed it since). What is known of
  /// its package then is at most what it made known.
  bool holds(size_t Index, uint64_t Stamp) const {
    return Index < Assignments.size() && Assignments[Index].Stamp == Stamp;
  }
  /// What is known of P, by its set's id; a key with NoSet when nothing is
  /// known.
  TermKey knownKey(PackageId P) const {
    if (P >= States.size() || States[P].Own.empty())
      return {};
    return Assignments[States[P].Own.back()].key();
  }
  /// The level from which what is known of P holds (Assignment::HoldsFrom of
  /// its last assignment); 0 when nothing is known.
  unsigned knownHoldsFrom(PackageId P) const {
    if (P >= States.size() || States[P].Own.empty())
      return 0;
    return Assignments[States[P].Own.back()].HoldsFrom;
  }
  bool decided(PackageId P) const { return P < Decided.size() && Decided[P]; }

  /// Whether P is left to decide: known positively and not decided.
  bool open(PackageId P) const {
    return P < States.size() && States[P].InOrder && !Decided[P];
  }
  /// Where P stands in the order in which packages became positive (pub's
  /// map order, which breaks ties between candidates): a package placed
  /// later has a larger stamp. 0 when it is not positive.
  uint64_t orderStamp(PackageId P) const { return Stamps[P]; }

  /// The packages whose generation changed since clearChanged() (restart()
  /// clears it too), each once.
  const std::vector<PackageId> &changed() const { return Changed; }
  void clearChanged() {
    for (PackageId P : Changed)
      IsChanged[P] = 0;
    Changed.clear();
  }

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
    Decided[Package] = 1;
    ++DecisionCount;
    // The solver decides only on a version that what is known of the
    // package allows: what is known is then the decision, no intersection.
    assert(
        (knownKey(Package).Set == NoSet ||
         knownSet(Package).contains(Version) == knownKey(Package).Positive) &&
        "a decision that the partial solution does not allow");
    SetId Set = Sets.intern(VS::exactly(Version));
    push(Package, std::nullopt, TermKey{Set, true}, decisionLevel());
  }

  /// Assigns the inverse of Of, Package's term in the incompatibility
  /// Cause (which that one and the solution so far imply); its premises
  /// hold from level HoldsFrom (by default the current one).
  void deriveInverse(PackageId Package, TermKey Of, IncompId Cause,
                     std::optional<unsigned> HoldsFrom = std::nullopt) {
    ensure(Package + 1);
    deriveAccumulated(Package, without(knownKey(Package), Of), Cause,
                      HoldsFrom);
  }

  /// deriveInverse() for a caller that has the accumulated term already:
  /// what is known of Package without the versions Of allows (Of's inverse
  /// where nothing is known of it).
  void deriveAccumulated(PackageId Package, TermKey Accumulated, IncompId Cause,
                         std::optional<unsigned> HoldsFrom = std::nullopt) {
    ensure(Package + 1);
    unsigned From =
        HoldsFrom ? std::min(*HoldsFrom, decisionLevel()) : decisionLevel();
    if (!States[Package].Own.empty())
      From = std::max(From, Assignments[States[Package].Own.back()].HoldsFrom);
    push(Package, Cause, Accumulated, From);
  }

  /// deriveAccumulated() of the inverse of positive term {Of, true}, its
  /// accumulated term left to be computed where it is read: by the
  /// satisfier's search, from the assignments before it, or given by the
  /// caller to Package's last one (settle()), before anything else reads
  /// what is known of Package. Pruning rules out thousands of dead runs at
  /// the root's level, one derivation each, of which a search reads the
  /// last of each package and seldom another: the union of every run with
  /// those before it was computed and interned for each.
  void derivePending(PackageId Package, SetId Of, IncompId Cause,
                     std::optional<unsigned> HoldsFrom = std::nullopt) {
    deriveAccumulated(Package, TermKey{Of, false}, Cause, HoldsFrom);
    Assignments.back().Pending = true;
    Assignments.back().Set = Of;
  }

  /// Gives Package's last assignment, a pending one (derivePending()), its
  /// accumulated term Known: what the pending ones before it, and it, add
  /// to what was known before them, as their caller knows it otherwise.
  /// The ones before it stay pending.
  void settle(PackageId Package, TermKey Known) {
    Assignment &A = Assignments[States[Package].Own.back()];
    assert(A.Pending && "settles a pending assignment");
    assert(Known == pendingChain(Package, States[Package].Own.size() - 1,
                                 /*Keep=*/false) &&
           "the term given is the one the pending assignments make");
    A.Set = Known.Set;
    A.Positive = Known.Positive;
    A.Pending = false;
  }

  /// Makes room on the trail for N more assignments.
  void reserveMore(size_t N) { Assignments.reserve(Assignments.size() + N); }
  /// Makes room for N more assignments of Package.
  void reserveOwn(PackageId Package, size_t N) {
    ensure(Package + 1);
    std::vector<unsigned> &Own = States[Package].Own;
    Own.reserve(Own.size() + N);
  }

  /// Removes every assignment made above decision level Level; with
  /// DroppedCauses, appends there the incompatibility each derivation
  /// removed was derived from.
  void backtrack(unsigned Level,
                 std::vector<IncompId> *DroppedCauses = nullptr) {
    popWhile([&](const Assignment &A) { return A.Level > Level; },
             DroppedCauses);
  }

  /// Removes every assignment after the first N (a place on the trail, not
  /// a level: what was assigned at a level after that place goes, what was
  /// assigned before it stays).
  void truncate(size_t N) {
    popWhile([&](const Assignment &) { return Assignments.size() > N; },
             nullptr);
  }

  /// Lists every package assigned since restart() among the changed ones,
  /// for a caller that has forgotten what it knew of them.
  void markAllChanged() {
    for (PackageId P : Assigned)
      if (!IsChanged[P]) {
        IsChanged[P] = 1;
        Changed.push_back(P);
      }
  }

  /// The number of assignments.
  size_t trailSize() const { return Assignments.size(); }

  /// The relation between what the solution knows about T's package and T
  /// (T's set in sets()).
  SetRelation relation(PackageId Package, TermKey T) {
    TermKey Known = knownKey(Package);
    if (Known.Set == NoSet)
      return SetRelation::Overlapping;
    return Sets.relation(Known, T);
  }

  bool satisfies(PackageId Package, TermKey T) {
    return relation(Package, T) == SetRelation::Subset;
  }

  /// The earliest assignment such that the assignments up to and including
  /// it satisfy T. T must be satisfied by the solution.
  const Assignment &satisfier(PackageId Package, TermKey T) {
    // Accumulated only narrows along Own: once it satisfies T, every later
    // one does too, so the first that does is found by bisection.
    const std::vector<unsigned> &Own = States[Package].Own;
    auto It =
        std::partition_point(Own.begin(), Own.end(), [&](const unsigned &I) {
          const Assignment &A = Assignments[I];
          TermKey Key = A.Pending ? pendingChain(Package, &I - Own.data(),
                                                 /*Keep=*/true)
                                  : A.key();
          return !Sets.satisfies(Key, T);
        });
    assert(It != Own.end() && "term is not satisfied by the partial solution");
    if (It == Own.end())
      return Assignments.back();
    return Assignments[*It];
  }

private:
  /// What is known of a package after the inverse of term Of is assigned,
  /// where Known was known before (NoSet: nothing, so Of's inverse).
  TermKey without(TermKey Known, TermKey Of) {
    return Known.Set == NoSet ? Of.inverse() : Sets.difference(Known, Of);
  }

  /// The accumulated term of Package's assignment at position At of its
  /// own, a pending one: the pending ones before it and it, each what was
  /// known before it without the versions its cause's term allows (that
  /// term's inverse where nothing was), as deriveInverse() computes it.
  /// With Keep, each one computed is no longer pending.
  TermKey pendingChain(PackageId Package, size_t At, bool Keep) {
    const std::vector<unsigned> &Own = States[Package].Own;
    size_t First = At;
    while (First > 0 && Assignments[Own[First - 1]].Pending)
      --First;
    TermKey Known = First == 0 ? TermKey{} : Assignments[Own[First - 1]].key();
    for (size_t K = First; K <= At; ++K) {
      Assignment &A = Assignments[Own[K]];
      TermKey Of{A.Set, true};
      Known = without(Known, Of);
      if (Keep) {
        A.Set = Known.Set;
        A.Positive = Known.Positive;
        A.Pending = false;
      }
    }
    return Known;
  }

  /// Removes assignments from the end while Pop says so (backtrack(),
  /// truncate()); the packages touched get a new generation and their place
  /// in the positive order again.
  template <class Pred>
  void popWhile(Pred Pop, std::vector<IncompId> *DroppedCauses) {
    std::vector<PackageId> Touched;
    while (!Assignments.empty() && Pop(Assignments.back())) {
      const Assignment &A = Assignments.back();
      if (DroppedCauses && A.Cause)
        DroppedCauses->push_back(*A.Cause);
      PackageState &S = States[A.Package];
      if (!S.Touched) {
        S.Touched = true;
        Touched.push_back(A.Package);
      }
      if (A.isDecision()) {
        S.Decision.reset();
        Decided[A.Package] = 0;
        --DecisionCount;
      }
      S.Own.pop_back();
      Assignments.pop_back();
    }
    if (Touched.empty())
      return;
    // Each touched package leaves the order, and re-enters it after every
    // untouched one, in the order in which its remaining assignments first
    // made it positive.
    std::vector<std::pair<unsigned, PackageId>> Reenter;
    for (PackageId P : Touched) {
      PackageState &S = States[P];
      S.Touched = false;
      S.InOrder = false;
      Stamps[P] = 0;
      newGeneration(P);
      for (unsigned Index : S.Own) {
        if (Assignments[Index].Positive) {
          S.InOrder = true;
          Reenter.emplace_back(Index, P);
          break;
        }
      }
    }
    std::sort(Reenter.begin(), Reenter.end());
    for (const auto &[Index, P] : Reenter)
      Stamps[P] = ++OrderClock;
  }

  /// Appends an assignment, given what is known of its package with it.
  void push(PackageId Package, std::optional<IncompId> Cause,
            TermKey Accumulated, unsigned HoldsFrom) {
    PackageState &S = States[Package];
    S.Own.push_back(unsigned(Assignments.size()));
    Assignments.push_back(Assignment{
        Package, decisionLevel(), unsigned(Assignments.size()), Cause,
        HoldsFrom, Accumulated.Set, Accumulated.Positive, false, 0});
    newGeneration(Package);
    Assignments.back().Stamp = Generations[Package];
    if (!S.InOrder && Accumulated.Positive) {
      S.InOrder = true;
      Stamps[Package] = ++OrderClock;
    }
  }

  void newGeneration(PackageId P) {
    if (!Generations[P])
      Assigned.push_back(P);
    Generations[P] = ++Clock;
    if (!IsChanged[P]) {
      IsChanged[P] = 1;
      Changed.push_back(P);
    }
  }

  SetTable<VS> Sets;
  std::vector<Assignment> Assignments;
  std::vector<PackageState> States;
  std::vector<uint64_t> Generations;
  /// The packages assigned since the last restart() (a generation other
  /// than 0), each once: all that restart() must reset.
  std::vector<PackageId> Assigned;
  std::vector<uint8_t> Decided;
  /// Per package: its place in the positive order (orderStamp()).
  std::vector<uint64_t> Stamps;
  std::vector<PackageId> Changed;
  std::vector<uint8_t> IsChanged;
  unsigned DecisionCount = 0;
  uint64_t Clock = 0;
  uint64_t OrderClock = 0;
};

} // namespace cudadeps::solver

#endif
