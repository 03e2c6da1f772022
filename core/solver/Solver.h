//===- Solver.h - PubGrub version solving ---------------------------------===//
//
// The PubGrub algorithm as dart-lang/pub implements it (doc/solver.md): unit
// propagation over incompatibilities, decisions on the package with the
// fewest allowed versions, and conflict resolution that learns a new
// incompatibility and backjumps. Dependencies of adjacent versions are
// collapsed into one incompatibility ("foo >=1.1.0 depends on bar ^2.0.0")
// so that explanations speak of ranges, not single versions.
//
// Generic over the package type P (copyable, default-constructible, with
// operator< and operator==), the version type V (ordered by operator<) and
// the version-set type VS (see Term.h, plus VS::exactly/atLeast/lessThan/
// between and contains()).
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_SOLVER_SOLVER_H
#define CUDADEPS_CORE_SOLVER_SOLVER_H

#include "core/solver/DependencyProvider.h"
#include "core/solver/DerivationTree.h"
#include "core/solver/Incompatibility.h"
#include "core/solver/PartialSolution.h"
#include "core/solver/Term.h"

#include <algorithm>
#include <map>
#include <optional>
#include <utility>
#include <vector>

namespace cudadeps::solver {

template <class P, class V, class VS> struct SolveResult {
  /// The selected version of every package in the solution, root included;
  /// set when a solution exists.
  std::optional<std::map<P, V>> Solution;
  /// Why no solution exists; set otherwise.
  std::optional<DerivationTree<P, VS>> Failure;
  /// How many incompatibilities the solve created (a measure of work).
  size_t IncompatibilityCount = 0;

  bool solved() const { return Solution.has_value(); }
};

template <class P, class V, class VS> class Solver {
public:
  using TermT = Term<VS>;
  using IncompatibilityT = Incompatibility<P, VS>;
  using Entry = typename IncompatibilityT::Entry;

  Solver(DependencyProvider<P, V, VS> &Provider, P Root, V RootVersion)
      : Provider(Provider), Root(std::move(Root)),
        RootVersion(std::move(RootVersion)) {}

  /// Solves once; a Solver object is not reusable.
  SolveResult<P, V, VS> solve() {
    IncompatibilityT RootIncompat;
    RootIncompat.Kind = CauseKind::Root;
    RootIncompat.Terms.emplace_back(Root, TermT::negative(VS::exactly(RootVersion)));
    addIncompatibility(std::move(RootIncompat));
    info(Root).FactsAsked = true;
    for (Fact<P, VS> &F : Provider.facts(Root))
      addFact(std::move(F));

    std::optional<P> Next = Root;
    while (Next) {
      if (!propagate(*Next))
        break;
      Next = choosePackageVersion();
    }

    SolveResult<P, V, VS> Result;
    Result.IncompatibilityCount = Store.size();
    if (FailureId)
      Result.Failure = DerivationTree<P, VS>::build(Store, *FailureId, Root);
    else
      Result.Solution = Solution.decisions();
    return Result;
  }

private:
  struct PackageInfo {
    bool Listed = false;
    bool FactsAsked = false;
    /// Versions in the provider's order of preference.
    std::vector<V> Preferred;
    /// The same versions in ascending order, for range collapsing.
    std::vector<V> Ascending;
    std::map<size_t, Dependencies<P, VS>> DepsByIndex;
    /// Per dependee: the versions of this package whose dependency on it has
    /// already been turned into an incompatibility.
    std::map<P, VS> AlreadyListed;
    VS KnownInvalid = VS::empty();
  };

  enum class Outcome { None, Conflict, Derived };

  PackageInfo &info(const P &Package) {
    PackageInfo &I = Infos[Package];
    if (I.Listed)
      return I;
    I.Listed = true;
    if (Package == Root)
      I.Preferred = {RootVersion};
    else
      I.Preferred = Provider.versions(Package);
    I.Ascending = I.Preferred;
    std::sort(I.Ascending.begin(), I.Ascending.end());
    I.Ascending.erase(std::unique(I.Ascending.begin(), I.Ascending.end(),
                                  [](const V &A, const V &B) {
                                    return !(A < B) && !(B < A);
                                  }),
                      I.Ascending.end());
    return I;
  }

  const Dependencies<P, VS> &depsAt(const P &Package, PackageInfo &I,
                                    size_t Index) {
    auto It = I.DepsByIndex.find(Index);
    if (It != I.DepsByIndex.end())
      return It->second;
    return I.DepsByIndex
        .emplace(Index, Provider.dependencies(Package, I.Ascending[Index]))
        .first->second;
  }

  IncompId addIncompatibility(IncompatibilityT I) {
    IncompId Id = Store.size();
    Store.push_back(std::move(I));
    index(Id);
    return Id;
  }

  void index(IncompId Id) {
    for (const Entry &E : Store[Id].Terms)
      ByPackage[E.first].push_back(Id);
  }

  void addFact(Fact<P, VS> F) {
    IncompatibilityT I =
        IncompatibilityT::make(std::move(F.Terms), CauseKind::Custom, Root);
    I.Text = std::move(F.Text);
    addIncompatibility(std::move(I));
  }

  /// If the incompatibility is almost satisfied, derives the inverse of its
  /// one unsatisfied term.
  Outcome propagateIncompatibility(IncompId Id, P &DerivedPackage) {
    const IncompatibilityT &I = Store[Id];
    const Entry *Unsatisfied = nullptr;
    for (const Entry &E : I.Terms) {
      SetRelation R = Solution.relation(E.first, E.second);
      if (R == SetRelation::Disjoint)
        return Outcome::None;
      if (R == SetRelation::Overlapping) {
        if (Unsatisfied)
          return Outcome::None;
        Unsatisfied = &E;
      }
    }
    if (!Unsatisfied)
      return Outcome::Conflict;
    DerivedPackage = Unsatisfied->first;
    Solution.derive(Unsatisfied->first, Unsatisfied->second.inverse(), Id);
    return Outcome::Derived;
  }

  /// Unit propagation from Package; false when solving has failed.
  bool propagate(const P &Package) {
    std::vector<P> Changed{Package};
    while (!Changed.empty()) {
      P Current = Changed.front();
      Changed.erase(Changed.begin());
      // Newest first: learned incompatibilities are the most general.
      std::vector<IncompId> Ids = ByPackage[Current];
      for (size_t K = Ids.size(); K-- > 0;) {
        P Derived{};
        Outcome O = propagateIncompatibility(Ids[K], Derived);
        if (O == Outcome::Conflict) {
          std::optional<IncompId> RootCause = resolveConflict(Ids[K]);
          if (!RootCause)
            return false;
          Changed.clear();
          Outcome After = propagateIncompatibility(*RootCause, Derived);
          (void)After;
          assert(After == Outcome::Derived && "learned clause must derive");
          Changed.push_back(Derived);
          break;
        }
        if (O == Outcome::Derived &&
            std::find(Changed.begin(), Changed.end(), Derived) ==
                Changed.end())
          Changed.push_back(Derived);
      }
    }
    return true;
  }

  /// Learns the root cause of a satisfied incompatibility and backjumps;
  /// returns it, or nothing when it proves that no solution exists.
  std::optional<IncompId> resolveConflict(IncompId Conflict) {
    using Assignment = typename PartialSolution<P, V, VS>::Assignment;
    bool Learned = false;
    IncompId Current = Conflict;
    while (!Store[Current].isFailure(Root)) {
      const IncompatibilityT &I = Store[Current];
      size_t MostRecentTerm = 0;
      const Assignment *MostRecent = nullptr;
      std::optional<TermT> Difference;
      // Level 1 is the root decision; stopping there keeps the root close to
      // the conclusion in explanations.
      unsigned PreviousLevel = 1;
      for (size_t K = 0; K < I.Terms.size(); ++K) {
        const Entry &E = I.Terms[K];
        const Assignment &Satisfier = Solution.satisfier(E.first, E.second);
        if (!MostRecent) {
          MostRecentTerm = K;
          MostRecent = &Satisfier;
        } else if (MostRecent->Index < Satisfier.Index) {
          PreviousLevel = std::max(PreviousLevel, MostRecent->Level);
          MostRecentTerm = K;
          MostRecent = &Satisfier;
          Difference.reset();
        } else {
          PreviousLevel = std::max(PreviousLevel, Satisfier.Level);
        }
        if (MostRecentTerm == K) {
          // The satisfier may satisfy the term only together with earlier
          // assignments (the "partial satisfier" case).
          TermT D = MostRecent->T.difference(E.second);
          if (D.set().isEmpty()) {
            Difference.reset();
          } else {
            Difference = D;
            PreviousLevel = std::max(
                PreviousLevel,
                Solution.satisfier(E.first, D.inverse()).Level);
          }
        }
      }

      if (PreviousLevel < MostRecent->Level || MostRecent->isDecision()) {
        Solution.backtrack(PreviousLevel);
        if (Learned)
          index(Current);
        return Current;
      }

      IncompId SatisfierCause = *MostRecent->Cause;
      std::vector<Entry> Terms;
      for (size_t K = 0; K < I.Terms.size(); ++K)
        if (K != MostRecentTerm)
          Terms.push_back(I.Terms[K]);
      for (const Entry &E : Store[SatisfierCause].Terms)
        if (!(E.first == MostRecent->Package))
          Terms.push_back(E);
      if (Difference)
        Terms.emplace_back(MostRecent->Package, Difference->inverse());
      IncompatibilityT New =
          IncompatibilityT::make(std::move(Terms), CauseKind::Derived, Root);
      New.Cause1 = Current;
      New.Cause2 = SatisfierCause;
      Current = Store.size();
      Store.push_back(std::move(New));
      Learned = true;
    }
    FailureId = Current;
    return std::nullopt;
  }

  /// The incompatibilities for one version: its dependencies, each widened
  /// to the adjacent versions that have the same dependency.
  std::vector<IncompatibilityT> incompatibilitiesFor(const P &Package,
                                                     const V &Version) {
    std::vector<IncompatibilityT> Out;
    PackageInfo &I = info(Package);
    if (Package == Root) {
      if (RootListed)
        return Out;
      RootListed = true;
      Dependencies<P, VS> D = Provider.dependencies(Root, RootVersion);
      TermT Depender = TermT::positive(VS::exactly(RootVersion));
      if (!D.Available) {
        IncompatibilityT U;
        U.Kind = CauseKind::Unavailable;
        U.Terms.emplace_back(Root, Depender);
        U.Text = D.Reason;
        Out.push_back(std::move(U));
        return Out;
      }
      for (auto &[Dep, Set] : D.On)
        Out.push_back(dependency(Root, Depender, Dep, Set));
      return Out;
    }

    if (I.KnownInvalid.contains(Version))
      return Out;
    size_t Index = std::lower_bound(I.Ascending.begin(), I.Ascending.end(),
                                    Version) -
                   I.Ascending.begin();
    const Dependencies<P, VS> &D = depsAt(Package, I, Index);
    if (!D.Available) {
      I.KnownInvalid = I.KnownInvalid.unionWith(VS::exactly(Version));
      IncompatibilityT U;
      U.Kind = CauseKind::Unavailable;
      U.Terms.emplace_back(Package, TermT::positive(VS::exactly(Version)));
      U.Text = D.Reason;
      Out.push_back(std::move(U));
      return Out;
    }

    std::vector<std::pair<P, VS>> Deps;
    for (const auto &[Dep, Set] : D.On) {
      auto It = I.AlreadyListed.find(Dep);
      if (It != I.AlreadyListed.end() && It->second.contains(Version))
        continue;
      Deps.emplace_back(Dep, Set);
    }
    std::sort(Deps.begin(), Deps.end(),
              [](const auto &A, const auto &B) { return A.first < B.first; });

    std::map<P, V> Lower = bounds(Package, I, Deps, Index, /*Upper=*/false);
    std::map<P, V> Upper = bounds(Package, I, Deps, Index, /*Upper=*/true);
    for (const auto &[Dep, Set] : Deps) {
      auto L = Lower.find(Dep);
      auto U = Upper.find(Dep);
      VS Range = VS::any();
      if (L != Lower.end() && U != Upper.end())
        Range = VS::between(L->second, U->second);
      else if (L != Lower.end())
        Range = VS::atLeast(L->second);
      else if (U != Upper.end())
        Range = VS::lessThan(U->second);
      auto [It, Inserted] = I.AlreadyListed.emplace(Dep, Range);
      if (!Inserted)
        It->second = It->second.unionWith(Range);
      Out.push_back(dependency(Package, TermT::positive(Range), Dep, Set));
    }
    return Out;
  }

  IncompatibilityT dependency(const P &Depender, const TermT &DependerTerm,
                              const P &Dependee, const VS &Set) {
    std::vector<Entry> Terms;
    Terms.emplace_back(Depender, DependerTerm);
    Terms.emplace_back(Dependee, TermT::negative(Set));
    return IncompatibilityT::make(std::move(Terms), CauseKind::Dependency,
                                  Root);
  }

  static bool hasSame(const Dependencies<P, VS> &D, const P &Dep,
                      const VS &Set) {
    if (!D.Available)
      return false;
    for (const auto &[Other, OtherSet] : D.On)
      if (Other == Dep)
        return OtherSet == Set;
    return false;
  }

  /// For each dependency, the bound of the run of adjacent versions around
  /// Index that share it: the inclusive lower bound, or the exclusive upper
  /// bound. Absent when the run reaches the oldest (newest) version.
  std::map<P, V> bounds(const P &Package, PackageInfo &I,
                        const std::vector<std::pair<P, VS>> &Deps,
                        size_t Index, bool Upper) {
    std::map<P, V> Out;
    size_t Previous = Index;
    size_t N = I.Ascending.size();
    for (size_t Step = 1; Out.size() < Deps.size(); ++Step) {
      size_t J;
      if (Upper) {
        if (Index + Step >= N)
          break;
        J = Index + Step;
      } else {
        if (Step > Index)
          break;
        J = Index - Step;
      }
      const V &Boundary = Upper ? I.Ascending[J] : I.Ascending[Previous];
      const Dependencies<P, VS> &Other = depsAt(Package, I, J);
      for (const auto &[Dep, Set] : Deps)
        if (!Out.count(Dep) && !hasSame(Other, Dep, Set))
          Out.emplace(Dep, Boundary);
      Previous = J;
    }
    return Out;
  }

  /// Picks the next package and, if possible, a version of it; returns the
  /// package to propagate from, or nothing when every package is decided.
  std::optional<P> choosePackageVersion() {
    std::vector<std::pair<P, VS>> Unsatisfied = Solution.unsatisfied();
    if (Unsatisfied.empty())
      return std::nullopt;

    for (const auto &[Package, Set] : Unsatisfied) {
      PackageInfo &I = info(Package);
      if (I.FactsAsked)
        continue;
      I.FactsAsked = true;
      std::vector<Fact<P, VS>> Facts = Provider.facts(Package);
      if (Facts.empty())
        continue;
      for (Fact<P, VS> &F : Facts)
        addFact(std::move(F));
      return Package;
    }

    // The package with the fewest allowed versions, so that a conflict, if
    // there must be one, comes early. Ties: the one constrained first.
    size_t Best = 0;
    size_t BestCount = 0;
    for (size_t K = 0; K < Unsatisfied.size(); ++K) {
      const auto &[Package, Set] = Unsatisfied[K];
      size_t Count = 0;
      for (const V &Version : info(Package).Preferred)
        Count += Set.contains(Version) ? 1 : 0;
      if (K == 0 || Count < BestCount) {
        Best = K;
        BestCount = Count;
      }
    }
    const P Package = Unsatisfied[Best].first;
    const VS Allowed = Unsatisfied[Best].second;

    std::optional<V> Version;
    for (const V &Candidate : info(Package).Preferred) {
      if (Allowed.contains(Candidate)) {
        Version = Candidate;
        break;
      }
    }
    if (!Version) {
      IncompatibilityT None;
      None.Kind = CauseKind::NoVersions;
      None.Terms.emplace_back(Package, TermT::positive(Allowed));
      addIncompatibility(std::move(None));
      return Package;
    }

    bool Conflict = false;
    for (IncompatibilityT &New : incompatibilitiesFor(Package, *Version)) {
      IncompId Id = addIncompatibility(std::move(New));
      // A dependency already contradicted by the solution would make this
      // version a conflict: keep its facts, let propagation choose again.
      bool AllSatisfied = true;
      for (const Entry &E : Store[Id].Terms)
        if (!(E.first == Package) && !Solution.satisfies(E.first, E.second))
          AllSatisfied = false;
      Conflict = Conflict || AllSatisfied;
    }
    if (!Conflict)
      Solution.decide(Package, *Version);
    return Package;
  }

  DependencyProvider<P, V, VS> &Provider;
  P Root;
  V RootVersion;
  bool RootListed = false;
  std::vector<IncompatibilityT> Store;
  std::map<P, std::vector<IncompId>> ByPackage;
  std::map<P, PackageInfo> Infos;
  PartialSolution<P, V, VS> Solution;
  std::optional<IncompId> FailureId;
};

/// Solves the dependencies of Root at RootVersion.
template <class P, class V, class VS>
SolveResult<P, V, VS> solve(DependencyProvider<P, V, VS> &Provider,
                            const P &Root, const V &RootVersion) {
  return Solver<P, V, VS>(Provider, Root, RootVersion).solve();
}

} // namespace cudadeps::solver

#endif
