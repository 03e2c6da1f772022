//===- Solver.h - PubGrub version solving ---------------------------------===//
//
// The PubGrub algorithm as dart-lang/pub implements it (doc/solver.md): unit
// propagation over incompatibilities, decisions on the package with the
// fewest allowed versions, and conflict resolution that learns a new
// incompatibility and backjumps (or, where the backjump would skip more
// than 100 decision levels, backtracks chronologically: resolveConflict()).
// Dependencies of adjacent versions are collapsed into one incompatibility
// ("foo >=1.1.0 depends on bar ^2.0.0") so that explanations speak of
// ranges, not single versions.
//
// Generic over the package type P (copyable, default-constructible, with
// operator<, operator== and std::hash), the version type V (ordered by
// operator<) and the version-set type VS (see Term.h, plus
// VS::exactly/atLeast/lessThan/between, contains() and rangesIn(), the runs
// of a sorted list of versions it contains). Internally packages are
// interned: every table of the hot path (partial solution, incompatibilities
// by package, versions) is indexed by a PackageId, and P is only used to talk
// to the provider and in the incompatibilities that explanations read.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_SOLVER_SOLVER_H
#define CUDADEPS_CORE_SOLVER_SOLVER_H

#include "core/solver/Candidates.h"
#include "core/solver/DependencyProvider.h"
#include "core/solver/DerivationTree.h"
#include "core/solver/Incompatibility.h"
#include "core/solver/PartialSolution.h"
#include "core/solver/RadixQueue.h"
#include "core/solver/SetTable.h"
#include "core/solver/Term.h"
#include "core/support/NameIndex.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <bit>
#include <cstddef>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <tuple>
#include <utility>
#include <vector>

namespace cudadeps::solver {

/// How much of a failure's derivation a caller reads: Whole (every node's
/// terms, to write the proof out) or Externals (the external causes alone,
/// in the order DerivationTree::externals() lists them: no derived node).
enum class FailureDetail { Whole, Externals };

template <class P, class V, class VS> struct SolveResult {
  /// The selected version of every package in the solution, root included;
  /// set when a solution exists.
  std::optional<std::map<P, V>> Solution;
  /// Why no solution exists; set otherwise, unless its causes were handed
  /// to a visitor instead (Solver::query()'s OnCauses: CausesVisited).
  std::optional<DerivationTree<P, VS>> Failure;
  bool CausesVisited = false;
  /// How many incompatibilities the solve created (a measure of work).
  size_t IncompatibilityCount = 0;
  /// A query that reached its decision limit: neither solved nor failed.
  bool Undecided = false;
  /// What the search did (for benchmarks and profiling): decisions made,
  /// conflicts resolved, incompatibilities learned by resolving them,
  /// incompatibilities looked at by unit propagation, and decision levels
  /// undone by backjumps.
  struct Counters {
    size_t Decisions = 0;
    size_t Conflicts = 0;
    size_t Learned = 0;
    size_t Visits = 0;
    size_t Backjumped = 0;
    /// Versions found unusable by pruning (Solver::setPruneAfter()).
    size_t Pruned = 0;
  } Work;

  bool solved() const { return Solution.has_value(); }
};

template <class P, class V, class VS> class Solver {
public:
  using TermT = Term<VS>;
  using IncompatibilityT = Incompatibility<P, VS>;
  using Entry = typename IncompatibilityT::Entry;

  Solver(DependencyProvider<P, V, VS> &Provider, P Root, V RootVersion)
      : Provider(Provider), Root(std::move(Root)),
        RootVersion(std::move(RootVersion)) {
    RootId = id(this->Root);
  }

  /// How many decision levels a backjump may skip before the solver
  /// backtracks chronologically instead (see resolveConflict(); 100 unless
  /// set): 0 backtracks chronologically wherever a backjump would skip a
  /// level, UINT_MAX never does. Either way the answer is right; the
  /// solution found and the work done may differ.
  void setChronologicalDistance(unsigned Levels) {
    ChronologicalDistance = Levels;
  }

  /// Beyond its decision limit, how much work a query may do before it
  /// ends Undecided: the conflicts it resolves and the incompatibilities it
  /// learns on the way (each a step of a proof). The decision limit bounds
  /// how deep a query searches, these how long, and how large a reason it
  /// may give: a query whose pin starts a long chain of conflicts, or one
  /// conflict resolved through thousands of derivations, would otherwise
  /// cost as much as a solve, and its reason would be as long as the proof.
  /// Proof bounds how large a failed query's proof may be (the
  /// incompatibilities it rests on, each counted once): one resting on
  /// pruned versions (setPruneAfter()) is found without search, but may
  /// rest on thousands of them; beyond the bound it ends Undecided too.
  struct QueryLimits {
    unsigned Conflicts = 64;
    unsigned Learned = 1000;
    unsigned Proof = 4000;
  };
  void setQueryLimits(QueryLimits Limits) { Limit = Limits; }

  /// After how many conflicts the first solve prunes (prune()): finds every
  /// version that no solution can hold because a dependency of it matches
  /// only such versions (or none), or it is unavailable, and restarts from
  /// the root's level with each one ruled out. 64 unless set; UINT_MAX
  /// never; 0 as soon as the root is decided. A search that needs few conflicts
  /// (the problems people write) never reaches it; one where many versions are
  /// dead ends stops discovering them one conflict at a time. Earlier, after
  /// 8 conflicts (when that is fewer), where backjumps have undone a fifth of
  /// the search's decisions (prunesNow()).
  void setPruneAfter(unsigned Conflicts) { PruneAfter = Conflicts; }

  /// Solves once; then query() asks about variants of the same problem.
  SolveResult<P, V, VS> solve() {
    IncompatibilityT RootIncompat;
    RootIncompat.Kind = CauseKind::Root;
    RootIncompat.Terms.emplace_back(Root, TermT::negative(VS::exactly(RootVersion)));
    addIncompatibility(std::move(RootIncompat));
    FactsAsked[RootId] = true;
    for (Fact<P, VS> &F : Provider.facts(Root))
      addFact(std::move(F));
    run();
    if (Relist)
      relist();
    std::fill(SettledSeen.begin(), SettledSeen.end(), 0);
    SolveResult<P, V, VS> Result = result();
    if (Result.Solution) {
      FirstSolution.assign(Names.size(), std::nullopt);
      for (auto &[Pkg, Version] : Solution.decisions())
        FirstSolution[Pkg] = Version;
      Solved = true;
    }
    return Result;
  }

  /// After solve(): whether a solution exists in which Package's version is
  /// in Set (e.g. "why not the newest release?"). Everything the first solve
  /// learned is kept (each incompatibility it derived holds for every query),
  /// the dependencies and facts it asked for are not asked again, decisions
  /// try the versions of solve()'s solution first, and packages that must
  /// leave it before others. A query makes at most \p MaxDecisions
  /// decisions: beyond that it ends Undecided (neither a solution nor a
  /// failure), so that it costs a fraction of a solve; so it does beyond
  /// setQueryLimits(). It ends solved as
  /// soon as no open package has to leave the first solution and the
  /// decisions so far, with the first solution's versions for the rest, are
  /// a solution: every incompatibility that could be broken (one about a
  /// package that left the first solution, which satisfies all the others)
  /// is checked, so this is a proof, not a guess. Incompatibilities derived
  /// from Set itself are dropped afterwards (forgetQuery()): queries do not
  /// affect one another, and the store keeps only what every query may
  /// reuse.
  /// Every query starts from the root's level (enterRootLevel()), which is
  /// propagated once, not once per query.
  /// Without \p WithSolution a solved query's Solution is left empty (for
  /// callers that ask only whether, and why not). With
  /// FailureDetail::Externals a failure is its external causes alone
  /// (DerivationTree::ExternalsOnly): for callers that
  /// read only those, where copying the whole proof was most of the work of
  /// a large one. With OnCauses too, those are handed to it where they are
  /// kept, before the query's own incompatibilities go, and no tree is made
  /// (the result says CausesVisited): a failed query's causes were copied
  /// into a tree, read once and freed.
  SolveResult<P, V, VS>
  query(const P &Package, const VS &Set, unsigned MaxDecisions,
        bool WithSolution = true, FailureDetail Detail = FailureDetail::Whole,
        llvm::function_ref<void(llvm::ArrayRef<CauseView<P, VS>>)> OnCauses =
            nullptr) {
    assert(Solved && "query() asks about a problem that solve() solved");
    // A query makes a dozen decisions: it never backtracks chronologically
    // (and so keeps no levels its derivations hold from) unless it must.
    Chronological = false;
    Open.clear();
    FailureId.reset();
    Work = {};
    Exhausted = false;
    Completed.clear();
    CompletionChecks = 2;
    QueryDecisions = MaxDecisions;
    if (!enterRootLevel()) {
      // Not for a problem solve() solved: the root's level alone fails.
      SolveResult<P, V, VS> Failed = result(WithSolution);
      HaveRootLevel = false;
      Solution.restart();
      FailureId.reset();
      return Failed;
    }
    IncompatibilityT Pin;
    Pin.Kind = CauseKind::Dependency;
    Pin.Terms.emplace_back(Root, TermT::positive(VS::exactly(RootVersion)));
    Pin.Terms.emplace_back(Package, TermT::negative(Set));
    IncompId PinId = addIncompatibility(std::move(Pin));
    Tainted[PinId] = true;
    QueryStart = PinId;
    Querying = true;
    run();
    Querying = false;
    if (FailureId && !proofWithin(*FailureId, Limit.Proof)) {
      FailureId.reset();
      Exhausted = true;
    }
    if (FailureId && Detail == FailureDetail::Externals && OnCauses) {
      // Read in place, before the query's own incompatibilities go: no
      // tree is made (each cause's terms and text were copied into one,
      // and freed after it was read).
      OnCauses(causesAt(*FailureId));
    }
    SolveResult<P, V, VS> Result =
        result(WithSolution, /*TakeTainted=*/true, Detail,
               /*MakeTree=*/
               !(FailureId && OnCauses && Detail == FailureDetail::Externals));
    forgetQuery(PinId);
    return Result;
  }

private:
  /// After a query that added the incompatibilities from From on: drops
  /// the ones that rest on its pin (they hold only under it), and the ones
  /// learned on the way to another that are in no package's list and no
  /// kept one's derivation; moves the others (the dependencies and facts it
  /// asked for, what was learned from them alone) down in their place,
  /// keeping their order, so that the store grows only by what every later
  /// query may use. Only this query's incompatibilities move, and only
  /// their packages' lists and the late facts hold them; an untainted one
  /// derives from untainted ones only.
  void forgetQuery(IncompId From) {
    // The assignments after the root's level name causes by id; those at
    // it are older than the query.
    Solution.truncate(RootTrail);
    FailureId.reset();
    Dropped.clear();
    std::vector<PackageId> Touched;
    for (IncompId Id = From; Id < Store.size(); ++Id)
      for (PackageId Pkg : Meta[Id].packages())
        if (!Queued[Pkg]) { // free outside propagate(): a mark
          Queued[Pkg] = true;
          Touched.push_back(Pkg);
        }
    std::vector<bool> Keep(Store.size() - From, false);
    for (PackageId Pkg : Touched) {
      Queued[Pkg] = false;
      for (const ListEntry &E : ByPackage[Pkg])
        if (E.Id >= From && !Tainted[E.Id])
          Keep[E.Id - From] = true;
    }
    for (IncompId Id = Store.size(); Id-- > From;)
      if (Keep[Id - From] && Store[Id].Kind == CauseKind::Derived)
        for (IncompId Cause : {Store[Id].Cause1, Store[Id].Cause2})
          if (Cause >= From)
            Keep[Cause - From] = true;
    constexpr IncompId Gone = ~IncompId(0);
    std::vector<IncompId> NewId(Store.size() - From, Gone);
    auto Renumber = [&](IncompId Id) {
      return Id < From ? Id : NewId[Id - From];
    };
    IncompId Next = From;
    for (IncompId Id = From; Id < Store.size(); ++Id) {
      if (!Keep[Id - From])
        continue;
      NewId[Id - From] = Next;
      if (Next != Id) {
        Store[Next] = std::move(Store[Id]);
        Meta[Next] = std::move(Meta[Id]);
        Tainted[Next] = false;
      }
      IncompatibilityT &I = Store[Next];
      if (I.Kind == CauseKind::Derived) {
        I.Cause1 = Renumber(I.Cause1);
        I.Cause2 = Renumber(I.Cause2);
      }
      ++Next;
    }
    for (PackageId Pkg : Touched) {
      std::vector<ListEntry> &Entries = ByPackage[Pkg];
      size_t Kept = 0;
      for (ListEntry E : Entries)
        if (IncompId New = Renumber(E.Id); New != Gone) {
          E.Id = New;
          Entries[Kept++] = E;
        }
      Entries.resize(Kept);
    }
    for (IncompId &Id : LateFacts)
      Id = Renumber(Id);
    Store.erase(Store.begin() + Next, Store.end());
    Meta.erase(Meta.begin() + Next, Meta.end());
    Tainted.resize(Next);
  }

  /// Before a query: the partial solution at the root's level (the root
  /// decided and everything propagated from it at levels 0 and 1), built
  /// once. Later queries cut the trail back to where that level ended (a
  /// query never backtracks below level 1, so everything before that place
  /// is still there) and propagate the incompatibilities kept since (facts
  /// and dependencies asked by a query, what was learned from them), instead
  /// of propagating the whole level again: in a large registry thousands of
  /// derivations from what the solve learned. False when propagating fails,
  /// which it cannot for a problem solve() solved.
  bool enterRootLevel() {
    if (!HaveRootLevel) {
      Solution.restart();
      // The root first (its incompatibility is the first), then what
      // pruning ruled out, then everything else: a query about a pruned
      // version then fails on its pin and that version's incompatibility,
      // not on something the search learned before pruning.
      PackageId RootDerived = RootId;
      assert(Store[0].Kind == CauseKind::Root && "solve() adds it first");
      if (!Dead.Ruled.empty())
        propagateIncompatibility(0, RootDerived);
      if (!rulePrunedOut() || !propagate(RootId))
        return false;
      Solution.decide(RootId, RootVersion);
      if (!propagate(RootId))
        return false;
      HaveRootLevel = true;
    } else {
      Solution.truncate(RootTrail);
      std::vector<PackageId> Since;
      for (IncompId Id = RootStore; Id < Store.size(); ++Id)
        Since.insert(Since.end(), Meta[Id].packages().begin(),
                     Meta[Id].packages().end());
      std::sort(Since.begin(), Since.end());
      Since.erase(std::unique(Since.begin(), Since.end()), Since.end());
      for (PackageId Pkg : Since)
        if (!propagate(Pkg))
          return false;
    }
    RootTrail = Solution.trailSize();
    RootStore = IncompId(Store.size());
    // The candidates were cleared: every package assigned is news to them.
    Solution.markAllChanged();
    return true;
  }

  /// A dependency as the solver keeps it: the dependee by the id of its
  /// name in DepNames (depId() gives its package id: a package is numbered
  /// where the solve first looks at it, not where a dependency on it is
  /// read, and the numbering orders what the solve does), the range by its
  /// set in sets().
  struct DepEntry {
    uint32_t Name;
    SetId Set;
  };
  /// A version's dependencies once read (depsAt()): a few words, where the
  /// provider's are a name and a set per dependency.
  struct VersionDeps {
    bool Read = false;
    bool Available = true;
    /// Where unavailable: its reason, in Reasons.
    uint32_t Reason = 0;
    llvm::SmallVector<DepEntry, 3> On;
  };

  struct PackageInfo {
    bool Listed = false;
    /// The provider's versions in ascending order, each once, for range
    /// collapsing.
    std::vector<V> Ascending;
    /// The provider's versions in its order of preference, as their indices
    /// in Ascending.
    std::vector<size_t> AscendingIndex;
    /// The provider's versions themselves, kept only where they are not
    /// Ascending reversed (a list out of order, or with versions that compare
    /// equal: the one preferred is decided as the provider wrote it).
    std::vector<V> Preferred;
    /// Per position K in Ascending: how many preferred versions lie before
    /// it (K + 1 entries), so that counting the allowed ones is a few
    /// bisections of Ascending, not a membership test per version.
    std::vector<size_t> PreferredBefore;
    /// Per position in Ascending: its dependencies once asked (the list
    /// sized at the first; its elements never move after).
    std::vector<VersionDeps> DepsByIndex;
    /// Per dependee: the versions of this package whose dependency on it has
    /// already been turned into an incompatibility.
    std::map<PackageId, VS> AlreadyListed;
    VS KnownInvalid = VS::empty();
  };

  /// How many versions of a package the partial solution allows, valid
  /// while the package's generation is Generation. Kept apart from
  /// PackageInfo (like FactsAsked), so that choosing a package, which looks
  /// at every open one, reads compact arrays.
  struct AllowedCount {
    size_t Count = 0;
    uint64_t Generation = ~uint64_t(0);
  };

  enum class Outcome { None, Conflict, Derived };

  /// prune(): a dependency of a version (Index in its package's Ascending,
  /// Position in its Dependencies::On) and the runs of its dependee's
  /// versions it allows (Runs to RunsEnd in Pruning::Runs).
  struct PruneEdge {
    PackageId Depender;
    uint32_t Index;
    uint32_t Position;
    PackageId Dependee;
    uint32_t Runs, RunsEnd;
  };
  static constexpr uint32_t NoEdge = ~uint32_t(0);
  /// A dead version, and the dependency that killed it (NoEdge: it is
  /// unavailable).
  struct PruneDeath {
    PackageId Pkg;
    uint32_t Index;
    uint32_t Edge;
  };
  /// A dead version's incompatibility whose proof is not written yet: the
  /// death that names its dependency, the run of its package's versions
  /// (From to To in Ascending) that die by that same dependency and share
  /// it, and whether the proof ends with "no versions".
  struct LazyProof {
    uint32_t Death;
    uint32_t From, To;
    bool NeedsNone;
    /// Not written yet (false also for the unavailable versions' ids).
    bool Pending = false;
    /// Its leaves in Proofs (ids with ProofBit) once written (writeLeaves()),
    /// before or without the steps between them: its dependency, and "no
    /// versions" where it ends so (else NoLeaf).
    IncompId DepLeaf = NoLeaf, NoneLeaf = NoLeaf;
  };
  static constexpr IncompId NoLeaf = ~IncompId(0);
  static constexpr uint32_t NotIndexed = ~uint32_t(0);
  /// What prune() found, kept to write each proof when it is read.
  struct Pruning {
    std::vector<PruneEdge> Edges;
    std::vector<std::pair<size_t, size_t>> Runs;
    /// In the order found: each one's dependee versions died before it.
    std::vector<PruneDeath> Deaths;
    /// Per package: where its versions' slots begin (a version's slot is
    /// Base[Pkg] plus its index in Ascending; Base has one entry more).
    std::vector<size_t> Base;
    /// Per version by slot: the incompatibility of a dead one (0 for any
    /// other).
    std::vector<IncompId> Why;
    /// The dead runs' incompatibilities, by id from LazyBase on (they are
    /// made in a row, the unavailable versions' among them): their proofs
    /// while not written yet (lazyOf()). An index, where a hash map of
    /// them was a hash and a probe per lookup, and materialize() looks up
    /// every incompatibility a query's proof walks.
    std::vector<LazyProof> Lazy;
    IncompId LazyBase = 0;
    /// Every dead version's incompatibility, each once, in the order made.
    std::vector<IncompId> Ruled;
    /// Per entry of Ruled, what ruleOut() last found: what was known of the
    /// package before, and after ruling the run out. The queries' root
    /// level rules them out again (rulePrunedOut()), mostly from the same
    /// sets: read here in order, where the set table's memo is a probe
    /// anywhere in a large table per run.
    struct RuledStep {
      TermKey Before{NoSet, false}, After{NoSet, false};
    };
    std::vector<RuledStep> Steps;
    /// Per entry of Ruled: the versions its run rules out as bits of its
    /// package's versions in ascending order (bit K: Ascending[K]), where
    /// there are at most 64 of them; 0 where there are more, and for an
    /// unavailable version, which rules out that version alone (a dead
    /// run rules out the span from its first version up to the one after
    /// its last: the cells of its versions, each from a version up to the
    /// next). rulePrunedOut() reads what is ruled out of such a package
    /// from these bits.
    std::vector<uint64_t> RuledCells;
    /// Per package: the number of its list of versions among the distinct
    /// lists (findDead()'s), ~0 where never asked; and per list and bits
    /// of its cells, the set they make (cellSet()), made once.
    std::vector<uint32_t> ListOf;
    llvm::DenseMap<std::pair<uint32_t, uint64_t>, SetId> CellSets;
    /// Per package: how many entries of Ruled are its.
    std::vector<uint32_t> RunsOf;
    /// Per incompatibility id (below Own.size()), where it is a dead
    /// version's: how many incompatibilities its proof adds (0 for any
    /// other; NotIndexed until indexDeadProof()), and the dead versions'
    /// incompatibilities its proof rests on (Rests, from RestsAt[Id].first
    /// to .second).
    std::vector<uint32_t> Own;
    std::vector<std::pair<uint32_t, uint32_t>> RestsAt;
    std::vector<IncompId> Rests;
  };

  /// An incompatibility in a package's list (ByPackage), with the place on
  /// the trail and the stamp of the assignment last found to contradict one
  /// of its terms on a visit from this list (propagateIncompatibility()):
  /// kept in the list, which propagation reads in order, rather than in the
  /// incompatibility's record, which it would otherwise read on every
  /// visit.
  struct ListEntry {
    IncompId Id;
    uint32_t BlockedAt = ~uint32_t(0);
    uint64_t BlockStamp = 0;
  };

  void run() {
    std::optional<PackageId> Next = RootId;
    while (Next) {
      if (!propagate(*Next))
        break;
      if (!Solved && !Pruned && prunesNow() && Solution.decisionLevel() >= 1) {
        Pruned = true;
        if (!prune())
          break;
      }
      Next = choosePackageVersion();
    }
  }

  /// Whether the first solve prunes now: after PruneAfter conflicts, or
  /// after ThrashAfter of them (at most PruneAfter) once backjumps have
  /// undone a fifth of the decisions made. A search that throws away that
  /// much is finding dead ends one conflict at a time, and each dead end
  /// it finds so costs it the decisions it undoes; pruning finds them all
  /// at once for the cost of reading every version's dependencies. A
  /// search whose few conflicts undo little goes on to PruneAfter, which
  /// most never reach.
  bool prunesNow() const {
    if (PruneAfter == UINT_MAX)
      return false;
    return Work.Conflicts >= PruneAfter ||
           (Work.Conflicts >= ThrashAfter &&
            Work.Backjumped * 5 >= Work.Decisions);
  }

  /// With TakeTainted (a query about to forget what rests on its pin:
  /// forgetQuery() reads only the kinds and causes of what it drops), the
  /// failure's derivation takes those incompatibilities' terms and texts
  /// instead of copying them.
  /// Without MakeTree, a failure's causes were visited (query()): the
  /// result says so, and holds no tree.
  SolveResult<P, V, VS> result(bool WithSolution = true,
                               bool TakeTainted = false,
                               FailureDetail Detail = FailureDetail::Whole,
                               bool MakeTree = true) {
    SolveResult<P, V, VS> Result;
    Result.IncompatibilityCount = Store.size();
    Result.Work = Work;
    if (FailureId && !MakeTree) {
      ProofCount = 0; // as a tree of the external causes leaves it
      Result.CausesVisited = true;
    } else if (FailureId) {
      // A node of the tree: a proof step as it is, an incompatibility of
      // the store with its terms (written from its keys where it keeps
      // none).
      auto Make = [&](IncompId Id) -> IncompatibilityT {
        if (Id & ProofBit) // a step of a dead version's proof
          return Proofs[Id & ~ProofBit];
        materialize(Id);
        IncompatibilityT &I = Store[Id];
        bool Take = TakeTainted && Tainted[Id];
        IncompatibilityT N;
        N.Kind = I.Kind;
        N.Cause1 = I.Cause1;
        N.Cause2 = I.Cause2;
        N.Text = Take ? std::move(I.Text) : I.Text;
        if (I.Terms.size() != Meta[Id].packages().size())
          N.Terms = termsFromKeys(Id);
        else
          N.Terms = Take ? std::move(I.Terms) : I.Terms;
        return N;
      };
      if (Detail == FailureDetail::Externals) {
        ProofCount = 0;
        Result.Failure = externalsOf(*FailureId, Make);
      } else {
        Result.Failure = DerivationTree<P, VS>::build(
            *FailureId, Root, Make, std::exchange(ProofCount, 0));
      }
    } else if (Exhausted) {
      Result.Undecided = true;
    } else if (!WithSolution) {
      Result.Solution.emplace();
    } else if (!Completed.empty()) {
      std::map<P, V> Out;
      for (auto &[Pkg, Version] : Completed)
        Out.emplace(Names[Pkg], Version);
      Result.Solution = std::move(Out);
    } else {
      std::map<P, V> Out;
      for (auto &[Pkg, Version] : Solution.decisions())
        Out.emplace(Names[Pkg], std::move(Version));
      Result.Solution = std::move(Out);
    }
    return Result;
  }

  /// The id of Package, interning it on first sight.
  PackageId id(const P &Package) {
    auto [Id, New] = Ids.intern(Package, Names);
    if (!New)
      return Id;
    Infos.emplace_back();
    Counts.emplace_back();
    FactsAsked.push_back(false);
    ByPackage.emplace_back();
    SettledSeen.push_back(0);
    Queued.push_back(false);
    Solution.ensure(Names.size());
    if (Solved)
      FirstSolution.emplace_back();
    return Id;
  }

  PackageInfo &info(PackageId Pkg) {
    PackageInfo &I = Infos[Pkg];
    if (I.Listed)
      return I;
    I.Listed = true;
    std::vector<V> Preferred;
    if (Pkg == RootId)
      Preferred = {RootVersion};
    else
      Preferred = Provider.versions(Names[Pkg]);
    // Most often newest first, each version once: Ascending reversed.
    size_t N = Preferred.size();
    I.AscendingIndex.reserve(N);
    bool Descending = true;
    for (size_t K = 1; K < N && Descending; ++K)
      Descending = Preferred[K] < Preferred[K - 1];
    if (Descending) {
      I.Ascending.assign(std::make_move_iterator(Preferred.rbegin()),
                         std::make_move_iterator(Preferred.rend()));
      for (size_t K = 0; K < N; ++K)
        I.AscendingIndex.push_back(N - 1 - K);
    } else {
      I.Ascending.assign(Preferred.begin(), Preferred.end());
      std::sort(I.Ascending.begin(), I.Ascending.end());
      I.Ascending.erase(std::unique(I.Ascending.begin(), I.Ascending.end(),
                                    [](const V &A, const V &B) {
                                      return !(A < B) && !(B < A);
                                    }),
                        I.Ascending.end());
      for (const V &Version : Preferred)
        I.AscendingIndex.push_back(ascendingIndex(I, Version));
      I.Preferred = std::move(Preferred);
    }
    I.PreferredBefore.assign(I.Ascending.size() + 1, 0);
    for (size_t A : I.AscendingIndex)
      ++I.PreferredBefore[A + 1];
    for (size_t K = 1; K < I.PreferredBefore.size(); ++K)
      I.PreferredBefore[K] += I.PreferredBefore[K - 1];
    return I;
  }

  const VersionDeps &depsAt(PackageId Pkg, PackageInfo &I, size_t Index) {
    if (I.DepsByIndex.empty())
      I.DepsByIndex.resize(I.Ascending.size());
    VersionDeps &D = I.DepsByIndex[Index];
    if (D.Read)
      return D;
    D.Read = true;
    // By the provider's numbers where it numbers its names: each name
    // hashed once per solve, not once per dependency.
    Numbered.On.clear();
    Numbered.ByNumber.clear();
    if (Provider.numberedDependencies(Names[Pkg], I.Ascending[Index],
                                      Numbered)) {
      if (!readAvailable(D, Numbered))
        return D;
      D.On.reserve(Numbered.On.size() + Numbered.ByNumber.size());
      for (auto &[Number, Set] : Numbered.On)
        D.On.push_back({nameOfNumber(Number), internShared(std::move(Set))});
      for (auto [Number, Range] : Numbered.ByNumber)
        D.On.push_back({nameOfNumber(Number), setOfRange(Range)});
      return D;
    }
    Dependencies<P, VS> Read =
        Provider.dependencies(Names[Pkg], I.Ascending[Index]);
    if (!readAvailable(D, Read))
      return D;
    D.On.reserve(Read.On.size());
    for (auto &[Name, Set] : Read.On)
      D.On.push_back({depName(Name), internShared(std::move(Set))});
    return D;
  }

  /// The id in DepNames of the provider's name number Number
  /// (NumberedDependencies), and the set of its range number Range
  /// (ByNumber): each asked of the provider once, then read from an array.
  uint32_t nameOfNumber(uint32_t Number) {
    if (Number < NameOfNumber.size() && NameOfNumber[Number] != NoName)
        [[likely]]
      return NameOfNumber[Number];
    if (Number >= NameOfNumber.size())
      NameOfNumber.resize(Number + 1, NoName);
    return NameOfNumber[Number] = depName(Provider.nameOf(Number));
  }
  SetId setOfRange(uint32_t Range) {
    if (Range < SetOfRange.size() && SetOfRange[Range] != NoSet) [[likely]]
      return SetOfRange[Range];
    if (Range >= SetOfRange.size())
      SetOfRange.resize(Range + 1, NoSet);
    return SetOfRange[Range] = internShared(Provider.rangeOf(Range));
  }

  /// D.Available from what the provider answered, with the reason where
  /// it is not.
  template <class Answer> bool readAvailable(VersionDeps &D, Answer &Read) {
    D.Available = Read.Available;
    if (!Read.Available) {
      D.Reason = uint32_t(Reasons.size());
      Reasons.push_back(std::move(Read.Reason));
    }
    return D.Available;
  }

  /// Name's id in DepNames, added on first sight.
  uint32_t depName(const P &Name) {
    auto [At, New] = DepNameIndex.intern(Name, DepNames);
    if (New)
      PackageOfName.push_back(NoPackage);
    return At;
  }

  /// Set's id in sets(). A range the provider hands out again shares its
  /// array with the one it handed out before (many versions have the same
  /// range): found by that array, without hashing it (the map keeps a copy
  /// of each, so that no array it names is freed and reused).
  SetId internShared(VS Set) {
    if constexpr (requires { Set.identity(); }) {
      const void *Shared = Set.identity();
      if (!Shared)
        return sets().intern(std::move(Set));
      if (auto It = SharedSets.find(Shared); It != SharedSets.end())
        return It->second.first;
      SetId Id = sets().intern(Set);
      SharedSets.try_emplace(Shared, Id, std::move(Set));
      return Id;
    } else {
      return sets().intern(std::move(Set));
    }
  }

  /// The package id of the dependee named DepNames[Name], numbered on first
  /// sight as id() numbers it.
  PackageId depId(uint32_t Name) {
    if (PackageOfName[Name] == NoPackage)
      PackageOfName[Name] = id(DepNames[Name]);
    return PackageOfName[Name];
  }

  /// Appends I to the store with the ids of its packages and its terms'
  /// sets (Ids and Keys, where the caller knows them: one per term); not
  /// indexed. A derived or dependency incompatibility may come without its
  /// terms (Ids and Keys say what they are): termsFromKeys() builds them
  /// where they are read.
  IncompId store(IncompatibilityT I, bool IsTainted,
                 llvm::ArrayRef<PackageId> Ids = {},
                 llvm::ArrayRef<TermKey> Keys = {}) {
    assert((Ids.empty() || Ids.size() == I.Terms.size() ||
            (I.Terms.empty() && (I.Kind == CauseKind::Derived ||
                                 I.Kind == CauseKind::Dependency))) &&
           "one id per term");
    assert(Keys.size() == Ids.size() && "one key per id");
    IncompId Id = Store.size();
    TermIndex &T = Meta.emplace_back();
    if (Ids.empty()) {
      llvm::SmallVector<PackageId, 4> Packages;
      llvm::SmallVector<TermKey, 4> Interned;
      for (const Entry &E : I.Terms) {
        Packages.push_back(id(E.first));
        Interned.push_back(
            {sets().intern(E.second.set()), E.second.isPositive()});
      }
      T.assign(Packages, Interned);
    } else {
      T.assign(Ids, Keys);
    }
    Store.push_back(std::move(I));
    Tainted.push_back(IsTainted);
    return Id;
  }

  /// store() of a derived incompatibility whose one term is Pkg's Key
  /// and whose causes and terms materialize() writes where it is read (a
  /// dead run's), made in place: tens of thousands of dead runs each built
  /// a record, moved it, and copied its term through store()'s arrays.
  IncompId storeRun(PackageId Pkg, TermKey Key) {
    IncompId Id = Store.size();
    IncompatibilityT &I = Store.emplace_back();
    I.Kind = CauseKind::Derived;
    I.Cause1 = I.Cause2 = NoEdge;
    Meta.emplace_back().assignOne(Pkg, Key);
    Tainted.push_back(false);
    return Id;
  }

  IncompId addIncompatibility(IncompatibilityT I) {
    IncompId Id = store(std::move(I), false);
    index(Id);
    return Id;
  }

  void index(IncompId Id) {
    Meta[Id].Indexed = true;
    for (PackageId Pkg : Meta[Id].packages())
      ByPackage[Pkg].push_back(ListEntry{Id});
  }

  void addFact(Fact<P, VS> F) {
    IncompatibilityT I =
        IncompatibilityT::make(std::move(F.Terms), CauseKind::Custom, Root);
    I.Text = std::move(F.Text);
    IncompId Id = addIncompatibility(std::move(I));
    if (Solved)
      LateFacts.push_back(Id);
  }

  /// If the incompatibility is almost satisfied, derives the inverse of its
  /// one unsatisfied term. Visited from a package's list (\p From, whose
  /// blocking assignment the caller found gone: propagate()), the entry
  /// is given the assignment found to contradict a term, if one is.
  Outcome propagateIncompatibility(IncompId Id, PackageId &DerivedPackage,
                                   ListEntry *From = nullptr) {
    ++Work.Visits;
    typename TermIndex::Terms T = Meta[Id].terms();
    llvm::ArrayRef<PackageId> Pkgs(T.Packages, T.Count);
    size_t Unsatisfied = SIZE_MAX;
    for (size_t K = 0; K < Pkgs.size(); ++K) {
      SetRelation R = relationOf(Pkgs[K], T.Keys[K], T.Relations[K]);
      if (R == SetRelation::Disjoint) {
        if (From) {
          const auto &By = Solution.last(Pkgs[K]);
          From->BlockedAt = By.Index;
          From->BlockStamp = By.Stamp;
        }
        return Outcome::None;
      }
      if (R == SetRelation::Overlapping) {
        if (Unsatisfied != SIZE_MAX)
          return Outcome::None;
        Unsatisfied = K;
      }
    }
    if (Unsatisfied == SIZE_MAX)
      return Outcome::Conflict;
    DerivedPackage = Pkgs[Unsatisfied];
    // Once the solver backtracks chronologically, a derivation can be made
    // above the level its premises hold from; that level is kept for
    // conflicts (resolveConflict()): at most the highest from which what
    // is known of the other terms' packages holds (an upper bound, read in
    // constant time: the term may have been satisfied earlier).
    std::optional<unsigned> HoldsFrom;
    if (Chronological) {
      unsigned From = 0;
      for (size_t K = 0; K < Pkgs.size(); ++K)
        if (K != Unsatisfied)
          From = std::max(From, Solution.knownHoldsFrom(Pkgs[K]));
      HoldsFrom = From;
    }
    Solution.deriveInverse(DerivedPackage, T.Keys[Unsatisfied], Id, HoldsFrom);
    return Outcome::Derived;
  }

  /// The level from which A holds, where the solver keeps it (after its
  /// first chronological backtrack), else the level it is assigned at.
  unsigned
  holdsFrom(const typename PartialSolution<V, VS>::Assignment &A) const {
    return Chronological ? A.HoldsFrom : A.Level;
  }

  /// The relation of what is known of a term's package to the term, as
  /// last computed, and the one before (24 bytes: the terms' sets and
  /// signs apart, where two TermKeys and two relations would pad to 32).
  struct CachedRelation {
    uint64_t Generation = ~uint64_t(0); // no generation: not computed
    /// What was known of the package when R was computed.
    SetId KnownSet = NoSet;
    /// What was known the time before, with its relation RBefore: a
    /// backjump undoes an assignment that is then made again, so what is
    /// known of a package often goes back and forth between two sets.
    SetId BeforeSet = NoSet;
    bool KnownPositive = false, BeforePositive = false;
    SetRelation R = SetRelation::Overlapping;
    SetRelation RBefore = SetRelation::Overlapping;
    TermKey known() const { return {KnownSet, KnownPositive}; }
    TermKey before() const { return {BeforeSet, BeforePositive}; }
    void setKnown(TermKey K) {
      KnownSet = K.Set;
      KnownPositive = K.Positive;
    }
    void setBefore(TermKey K) {
      BeforeSet = K.Set;
      BeforePositive = K.Positive;
    }
  };
  static_assert(sizeof(CachedRelation) == 24, "a relation in three words");
  /// An incompatibility's terms as the solver reads them: their packages'
  /// ids, their sets (TermKeys) and the cached relation of the partial
  /// solution to each. Inline for up to two terms (nearly all: every
  /// dependency, every pruned version's), in one record of 88 bytes where
  /// three small vectors took 144; more in one heap block.
  class TermIndex {
  public:
    TermIndex() = default;
    TermIndex(TermIndex &&) noexcept = default;
    TermIndex &operator=(TermIndex &&) noexcept = default;

    /// Its terms: Packages[K]'s set Keys[K] (one key per package).
    void assign(llvm::ArrayRef<PackageId> Packages,
                llvm::ArrayRef<TermKey> Keys) {
      assert(Packages.size() == Keys.size() && "one key per package");
      Count = uint32_t(Packages.size());
      Spill.reset();
      if (Count > Inline)
        Spill.reset(
            new std::byte[Count * (sizeof(CachedRelation) + sizeof(TermKey) +
                                   sizeof(PackageId))]);
      Terms T = terms();
      for (size_t K = 0; K < Count; ++K)
        new (T.Relations + K) CachedRelation();
      std::uninitialized_copy(Keys.begin(), Keys.end(),
                              const_cast<TermKey *>(T.Keys));
      std::uninitialized_copy(Packages.begin(), Packages.end(),
                              const_cast<PackageId *>(T.Packages));
    }
    /// assign() of one term, inline.
    void assignOne(PackageId Package, TermKey Key) {
      Count = 1;
      Spill.reset();
      new (InlineRelations) CachedRelation();
      InlineKeys[0] = Key;
      InlinePackages[0] = Package;
    }
    llvm::ArrayRef<PackageId> packages() const {
      return {layout().Packages, Count};
    }
    /// The terms by their sets in sets().
    llvm::ArrayRef<TermKey> keys() const { return {layout().Keys, Count}; }
    /// All three arrays at once, for a walk over the terms.
    struct Terms {
      const PackageId *Packages;
      const TermKey *Keys;
      CachedRelation *Relations;
      size_t Count;
    };
    Terms terms() { return layout(); }

    /// In its packages' lists (index()), not only a cause in a derivation.
    bool Indexed = false;

  private:
    static constexpr size_t Inline = 2;
    /// Where the arrays are: inline, or spilled into one block, the
    /// relations, the keys, then the packages (each array's offset a
    /// multiple of the next one's alignment).
    Terms layout() const {
      auto *Self = const_cast<TermIndex *>(this);
      if (!Spill)
        return {InlinePackages, InlineKeys, Self->InlineRelations, Count};
      std::byte *B = Spill.get();
      return {
          reinterpret_cast<const PackageId *>(
              B + Count * (sizeof(CachedRelation) + sizeof(TermKey))),
          reinterpret_cast<const TermKey *>(B + Count * sizeof(CachedRelation)),
          reinterpret_cast<CachedRelation *>(B), Count};
    }
    uint32_t Count = 0;
    PackageId InlinePackages[Inline] = {};
    TermKey InlineKeys[Inline];
    CachedRelation InlineRelations[Inline];
    std::unique_ptr<std::byte[]> Spill;
  };
  static_assert(sizeof(TermIndex) <= 88, "a term index in 88 bytes");
  static_assert(std::is_trivially_destructible_v<CachedRelation> &&
                    std::is_trivially_destructible_v<TermKey> &&
                    alignof(CachedRelation) % alignof(TermKey) == 0 &&
                    sizeof(CachedRelation) % alignof(TermKey) == 0 &&
                    sizeof(TermKey) % alignof(PackageId) == 0,
                "a spilled block's arrays need no destructor and are aligned");

  /// The relation of the partial solution to a term (Pkg's set Key, C the
  /// term's cache: TermIndex), looked at once per generation of Pkg, and
  /// asked of the table only when what is known of Pkg is another set than
  /// the last time (a backjump undoes assignments that are then made again,
  /// with the same sets).
  SetRelation relationOf(PackageId Pkg, TermKey Key, CachedRelation &C) {
    uint64_t Generation = Solution.generation(Pkg);
    if (C.Generation != Generation) {
      C.Generation = Generation;
      if (TermKey Known = Solution.knownKey(Pkg); Known != C.known()) {
        if (Known == C.before()) {
          C.setBefore(C.known());
          C.setKnown(Known);
          std::swap(C.R, C.RBefore);
        } else {
          C.setBefore(C.known());
          C.RBefore = C.R;
          C.setKnown(Known);
          C.R = Known.Set == NoSet ? SetRelation::Overlapping
                                   : sets().relation(Known, Key);
        }
      }
    }
    return C.R;
  }

  /// Unit propagation from Package; false when solving has failed.
  bool propagate(PackageId Package) {
    // A queue (with a read position, not erase-from-front) of packages whose
    // assignments changed; each is queued once at a time.
    std::vector<PackageId> Changed{Package};
    Queued[Package] = true;
    auto Enqueue = [&](PackageId Derived) {
      if (!Queued[Derived]) {
        Changed.push_back(Derived);
        Queued[Derived] = true;
      }
    };
    for (size_t Head = 0; Head < Changed.size(); ++Head) {
      PackageId Current = Changed[Head];
      Queued[Current] = false;
      // During the first solve, a list that is mostly entries settled for
      // the rest of it is shortened first (dropSettled()). Never in a
      // query: what its root level holds is not settled for the next.
      if (!Solved && SettledSeen[Current] * 2 > ByPackage[Current].size())
        dropSettled(Current);
      // Newest first: learned incompatibilities are the most general. The
      // list may grow meanwhile (facts, learned ones): only the ones present
      // now are visited, by position.
      size_t Settled = 0;
      for (size_t K = ByPackage[Current].size(); K-- > 0;) {
        // The entry stays in place until a conflict, which may grow the
        // list (learning) and is looked at by Id only.
        ListEntry &E = ByPackage[Current][K];
        // Contradicted by an assignment still on the trail: later ones only
        // narrow what is known, so the term stays contradicted (a SAT
        // solver's blocking literal) and the terms need not be looked at
        // again. Most visits end here, reading only the list and the trail.
        if (Solution.holds(E.BlockedAt, E.BlockStamp)) {
          ++Work.Visits;
          Settled += !Solved && settles(E) ? 1 : 0;
          continue;
        }
        IncompId Id = E.Id;
        PackageId Derived = 0;
        Outcome O = propagateIncompatibility(Id, Derived, &E);
        if (O == Outcome::Derived)
          Enqueue(Derived);
        if (O != Outcome::Conflict)
          continue;
        // A conflict: learn, backtrack, derive what was learned and then,
        // once the solver backtracks chronologically, what the assignments
        // the backtrack removed were derived from where it still follows
        // (a derivation made above the level it holds at is removed by a
        // backtrack that keeps its premises; derived again at once, it is
        // not found broken later, one conflict per level).
        while (O == Outcome::Conflict) {
          std::optional<IncompId> RootCause = resolveConflict(Id);
          for (size_t J = Head + 1; J < Changed.size(); ++J)
            Queued[Changed[J]] = false;
          if (!RootCause)
            return false;
          Changed.resize(Head + 1);
          if (Querying && Work.Conflicts >= Limit.Conflicts) {
            Exhausted = true;
            return false;
          }
          Outcome After = propagateIncompatibility(*RootCause, Derived);
          (void)After;
          assert(After == Outcome::Derived && "learned clause must derive");
          Enqueue(Derived);
          O = Outcome::None;
          std::vector<IncompId> Again = std::move(Dropped);
          Dropped.clear();
          // In the order they were derived: premises first.
          for (auto It = Again.rbegin(); It != Again.rend(); ++It) {
            IncompId Cause = *It;
            O = propagateIncompatibility(Cause, Derived);
            if (O == Outcome::Derived)
              Enqueue(Derived);
            if (O == Outcome::Conflict) {
              Id = Cause;
              break;
            }
          }
        }
        break;
      }
      SettledSeen[Current] += Settled;
    }
    return true;
  }

  /// Whether list entry E, whose blocking assignment holds, is settled for
  /// the rest of the first solve: that assignment is at the root's level
  /// (0 or 1), below which the solve never backtracks, so the entry's
  /// incompatibility cannot propagate from this list again.
  bool settles(const ListEntry &E) const {
    return Solution.assignments()[E.BlockedAt].Level <= 1;
  }

  /// During the first solve: drops Pkg's settled list entries (settles()),
  /// keeping the others in order. In large problems half of all visits
  /// were to such entries. The lists are made whole again when the solve
  /// ends (relist()), before a query, which builds its own root level.
  void dropSettled(PackageId Pkg) {
    assert(!Solved && "only the first solve keeps its root level throughout");
    std::vector<ListEntry> &L = ByPackage[Pkg];
    L.erase(std::remove_if(L.begin(), L.end(),
                           [&](const ListEntry &E) {
                             return Solution.holds(E.BlockedAt, E.BlockStamp) &&
                                    settles(E);
                           }),
            L.end());
    SettledSeen[Pkg] = 0;
    Relist = true;
  }

  /// Rebuilds every package's list from the indexed incompatibilities, in
  /// the order index() built them (ascending ids).
  void relist() {
    for (std::vector<ListEntry> &L : ByPackage)
      L.clear();
    for (IncompId Id = 0; Id < Meta.size(); ++Id)
      if (Meta[Id].Indexed)
        for (PackageId Pkg : Meta[Id].packages())
          ByPackage[Pkg].push_back(ListEntry{Id});
    Relist = false;
  }

  /// The first solve's pruning, once prunesNow() (after PruneAfter
  /// conflicts, or fewer where the search thrashes): arc consistency over the
  /// dependencies of every version of every package the solve can reach. A
  /// version is dead when it is unavailable, or when a dependency of it on
  /// another package allows only dead versions of it (or none). A run of
  /// adjacent versions dead by the same dependency gets one incompatibility,
  /// ruling out their span (from the first up to the version after the last, as
  /// addIncompatibilitiesFor() widens dependencies: dependents' ranges lose
  /// whole runs of versions, and what is known of a package stays a few
  /// intervals); an unavailable version rules out itself. Those are indexed;
  /// the solve goes back to the root's level (everything it learned is kept),
  /// rules them out there first and propagates from every package. False when
  /// that proves that no solution exists.
  ///
  /// The proof of a dead run is written only when one is read
  /// (materialize()): most are never part of a failure that anyone reads.
  bool prune() {
    // The search's working arrays are gone before the dead runs are ruled
    // out, which builds the most sets of the whole solve: that memory is
    // reused, not added to.
    if (!findDead())
      return true;
    Pruning &Pr = Dead;
    Pr.Own.assign(Store.size(), 0);
    Pr.RestsAt.resize(Store.size());
    for (IncompId Id : Pr.Ruled)
      Pr.Own[Id] = NotIndexed;

    // Back to the root's level, every dead version ruled out there.
    Work.Backjumped += Solution.decisionLevel() - 1; // the root's level is 1
    Dropped.clear();
    Solution.backtrack(1, Chronological ? &Dropped : nullptr);
    Dropped.clear();
    if (!rulePrunedOut())
      return false;
    for (PackageId Pkg = 0; Pkg < Names.size(); ++Pkg)
      if (!propagate(Pkg))
        return false;
    return true;
  }

  /// An array filled once after it is made, so not filled with zeros first
  /// (pruning's index of what allows each version is half a million
  /// entries).
  template <class T> class FilledOnce {
  public:
    explicit FilledOnce(size_t N)
        : Data(std::make_unique_for_overwrite<T[]>(N)), N(N) {}
    T &operator[](size_t I) { return Data[I]; }
    const T &operator[](size_t I) const { return Data[I]; }
    const T *data() const { return Data.get(); }
    size_t size() const { return N; }

  private:
    std::unique_ptr<T[]> Data;
    size_t N;
  };

  /// A counting sort: Each(Visit) calls Visit(Bucket, Value) for every
  /// value (buckets below Buckets), the same calls each time it is called
  /// (twice). The values by bucket, in the order visited within each:
  /// bucket B's from Starts[B] to Starts[B + 1].
  template <class T, class Index, class EachF>
  static FilledOnce<T> byBucket(size_t Buckets, std::vector<Index> &Starts,
                                EachF Each) {
    Starts.assign(Buckets + 1, 0);
    Each([&](size_t B, const T &) { ++Starts[B + 1]; });
    for (size_t B = 1; B <= Buckets; ++B)
      Starts[B] += Starts[B - 1];
    FilledOnce<T> Out(Starts.back());
    std::vector<Index> Next(Starts.begin(), Starts.end() - 1);
    Each([&](size_t B, const T &Value) { Out[Next[B]++] = Value; });
    return Out;
  }

  /// prune()'s search: finds the dead versions and makes the incompatibility
  /// of each dead run (Dead). False when none is dead.
  bool findDead() {
    Pruning &Pr = Dead;
    // Per package: how many versions it has (read while the list of
    // packages grows: sized at each package read, not at each dependency,
    // which may intern more).
    std::vector<uint32_t> Count;
    auto Grow = [&] { Count.resize(Names.size()); };
    // Found dead in the order of their proofs' sizes, smallest first
    // (Knuth's generalization of Dijkstra's algorithm to derivations): a
    // version is dead once one of its dependencies allows only versions
    // known dead, and the dependency it is blamed on is the one with the
    // smallest proof (the sizes of its dependee versions' proofs summed),
    // so that a reason says the least it can. The versions found are the
    // same whichever is blamed.
    // Taken in the order of (Size, Pkg, Index, Edge). Every size offered
    // is at least the size of the death that offers it, so the sizes
    // taken never go down: a radix queue (RadixQueue.h), where a binary
    // heap compared whole candidates at each of its levels.
    struct Candidate {
      uint64_t Size;
      PackageId Pkg;
      uint32_t Index, Edge;
    };
    struct SizeOf {
      uint64_t operator()(const Candidate &C) const { return C.Size; }
    };
    struct SameSizeFirst {
      bool operator()(const Candidate &A, const Candidate &B) const {
        return std::tie(A.Pkg, A.Index, A.Edge) <
               std::tie(B.Pkg, B.Index, B.Edge);
      }
    };
    RadixQueue<Candidate, SizeOf, SameSizeFirst> Queue;
    // The edges with the same dependee and range are a group: they allow
    // the same versions, and the search below counts each group's once,
    // not each edge's. Per group: its dependee, range and runs (a few
    // words, read where a version dies: not the edges'); per edge: its
    // group.
    struct Group {
      PackageId Dependee;
      SetId Range;
      uint32_t Runs, RunsEnd;
    };
    std::vector<Group> GroupsOf;
    std::vector<uint32_t> GroupOf;
    // Per edge while they are read: its range.
    std::vector<SetId> EdgeRange;
    // Per list of versions (ListOfPackage) and range: the runs the range
    // allows (Runs to RunsEnd in Pr.Runs), found once and shared by the
    // groups of every dependee with those versions.
    llvm::DenseMap<uint64_t, std::pair<uint32_t, uint32_t>> RunsOf;
    // Per package: the number of its list of versions among the distinct
    // lists (NoList for the root), each list's first package and the next
    // list of the same hash, and by hash the last list made with it.
    constexpr uint32_t NoList = ~uint32_t(0);
    std::vector<uint32_t> ListOfPackage;
    std::vector<PackageId> ListFirst;
    std::vector<uint32_t> ListNext;
    llvm::DenseMap<uint64_t, uint32_t> ListByHash;
    // Numbered as each package is read below (every one but the root's).
    auto numberList = [&](PackageId Pkg, const std::vector<V> &Versions) {
      llvm::hash_code H = llvm::hash_value(Versions.size());
      for (const V &Version : Versions)
        H = llvm::hash_combine(H, Version.hash());
      auto It =
          ListByHash.try_emplace(uint64_t(H) & ~(uint64_t(1) << 63), NoList)
              .first;
      uint32_t List = It->second;
      while (List != NoList && info(ListFirst[List]).Ascending != Versions)
        List = ListNext[List];
      if (List == NoList) {
        List = uint32_t(ListFirst.size());
        ListFirst.push_back(Pkg);
        ListNext.push_back(It->second);
        It->second = List;
      }
      ListOfPackage.resize(Names.size(), NoList);
      ListOfPackage[Pkg] = List;
    };
    // Every package reachable through any version's dependencies (the
    // list grows as they are interned), each version's dependencies read,
    // and how many link two packages' versions: the edges' arrays, the
    // largest pruning keeps, are then made at their size, where growing
    // them copied each into twice its size.
    auto Links = [&](PackageId Pkg, const VersionDeps &D, uint32_t J) {
      PackageId Dep = depId(D.On[J].Name);
      return Dep != Pkg && Dep != RootId ? Dep : NoPackage;
    };
    size_t EdgeCount = 0;
    Grow();
    for (PackageId Pkg = 0; Pkg < Names.size(); ++Pkg) {
      if (Pkg == RootId)
        continue;
      PackageInfo &I = info(Pkg);
      Grow();
      Count[Pkg] = uint32_t(I.Ascending.size());
      numberList(Pkg, I.Ascending);
      for (uint32_t K = 0; K < I.Ascending.size(); ++K) {
        const VersionDeps &D = depsAt(Pkg, I, K);
        if (!D.Available) {
          Queue.push({1, Pkg, K, NoEdge});
          continue;
        }
        for (uint32_t J = 0; J < D.On.size(); ++J)
          EdgeCount += Links(Pkg, D, J) != NoPackage;
      }
    }
    ListOfPackage.resize(Names.size(), NoList);
    Pr.Edges.reserve(Pr.Edges.size() + EdgeCount);
    EdgeRange.reserve(EdgeCount);
    for (PackageId Pkg = 0; Pkg < Names.size(); ++Pkg) {
      if (Pkg == RootId)
        continue;
      const std::vector<VersionDeps> &Deps = Infos[Pkg].DepsByIndex;
      for (uint32_t K = 0; K < Deps.size(); ++K) {
        const VersionDeps &D = Deps[K];
        for (uint32_t J = 0; D.Available && J < D.On.size(); ++J) {
          PackageId Dep = Links(Pkg, D, J);
          if (Dep == NoPackage)
            continue; // not a link between two packages' versions
          // The runs found once per list of versions and range (a small
          // table: few distinct ranges), shared by the edges that have both.
          auto [It, New] = RunsOf.try_emplace(
              uint64_t(ListOfPackage[Dep]) << 32 | D.On[J].Set);
          if (New) {
            uint32_t From = uint32_t(Pr.Runs.size());
            for (auto Run :
                 sets().get(D.On[J].Set).rangesIn(info(Dep).Ascending))
              Pr.Runs.push_back(Run);
            It->second = {From, uint32_t(Pr.Runs.size())};
          }
          Pr.Edges.push_back(
              {Pkg, K, J, Dep, It->second.first, It->second.second});
          EdgeRange.push_back(D.On[J].Set);
        }
      }
    }
    // Every package's slot, wherever the root's falls.
    Grow();
    // The groups, numbered by dependee and within one in the order of
    // their first edges (nothing found depends on the numbering: the
    // search takes the candidates in the order of their sizes and
    // versions, and sums what it counts). The edges are sorted by dependee
    // (a count, then each placed), and a dependee's read together, its
    // ranges told apart by a small table, where a hash map of every
    // (dependee, range) was probed once per edge, anywhere in it.
    {
      struct Placed {
        uint32_t Edge;
        SetId Range;
        uint32_t Runs, RunsEnd;
      };
      std::vector<uint32_t> At; // a dependee's edges: At[P] to At[P + 1]
      FilledOnce<Placed> ByDependee =
          byBucket<Placed>(Names.size(), At, [&](auto Visit) {
            for (uint32_t E = 0; E < Pr.Edges.size(); ++E) {
              const PruneEdge &Edge = Pr.Edges[E];
              Visit(Edge.Dependee,
                    Placed{E, EdgeRange[E], Edge.Runs, Edge.RunsEnd});
            }
          });
      // Per range: the dependee whose group it last made, and that group.
      llvm::DenseMap<SetId, std::pair<PackageId, uint32_t>> GroupOfRange;
      GroupOf.resize(Pr.Edges.size());
      PackageId Dependee = 0;
      for (uint32_t K = 0; K < ByDependee.size(); ++K) {
        const Placed &E = ByDependee[K];
        while (K >= At[Dependee + 1])
          ++Dependee;
        auto &[Of, G] =
            GroupOfRange.try_emplace(E.Range, NoPackage, 0).first->second;
        if (Of != Dependee) {
          Of = Dependee;
          G = uint32_t(GroupsOf.size());
          GroupsOf.push_back({Dependee, E.Range, E.Runs, E.RunsEnd});
        }
        GroupOf[E.Edge] = G;
      }
    }
    EdgeRange = {};
    // Per group: its edges, in the order made (GroupEdges, from
    // GroupStart[G] to GroupStart[G + 1]).
    const uint32_t Groups = uint32_t(GroupsOf.size());
    std::vector<uint32_t> GroupStart;
    FilledOnce<uint32_t> GroupEdges =
        byBucket<uint32_t>(Groups, GroupStart, [&](auto Visit) {
          for (uint32_t E = 0; E < GroupOf.size(); ++E)
            Visit(GroupOf[E], E);
        });
    // Per version of every package (numbered from Base[Pkg] on): the groups
    // whose range allows it, in the order made, one array (Allowing, from
    // Start[Slot] to Start[Slot + 1]). A version's death visits those
    // alone, not every group into its package (most allow other versions),
    // and reads them in one place.
    std::vector<size_t> &Base = Pr.Base;
    Base.assign(Names.size() + 1, 0);
    for (PackageId Pkg = 0; Pkg < Names.size(); ++Pkg)
      Base[Pkg + 1] = Base[Pkg] + Count[Pkg];
    // Per version by slot: the size of its proof once it is known dead (0:
    // not known dead). Flat, as the other per-version arrays here: the
    // deaths come in no order of package.
    std::vector<uint64_t> Size(Base.back(), 0);
    // How many groups allow each version, counted by where each run
    // begins and ends (one step per run, where counting version by
    // version took one per version a run allows: most allow several),
    // then each group placed at its versions.
    std::vector<size_t> Start(Base.back() + 1, 0);
    for (uint32_t G = 0; G < Groups; ++G) {
      const Group &Of = GroupsOf[G];
      for (uint32_t R = Of.Runs; R < Of.RunsEnd; ++R) {
        ++Start[Base[Of.Dependee] + Pr.Runs[R].first];
        --Start[Base[Of.Dependee] + Pr.Runs[R].second]; // wraps, undone below
      }
    }
    // Start[Slot]: the versions' counts before it, summed.
    for (size_t Slot = 0, Covering = 0, Before = 0; Slot <= Base.back();
         ++Slot) {
      Covering += Start[Slot];
      Start[Slot] = Before;
      Before += Covering;
    }
    FilledOnce<uint32_t> Allowing(Start.back());
    {
      std::vector<size_t> Next(Start.begin(), Start.end() - 1);
      for (uint32_t G = 0; G < Groups; ++G) {
        const Group &Of = GroupsOf[G];
        for (uint32_t R = Of.Runs; R < Of.RunsEnd; ++R)
          for (size_t K = Pr.Runs[R].first; K < Pr.Runs[R].second; ++K)
            Allowing[Next[Base[Of.Dependee] + K]++] = G;
      }
    }
    // Per group: the summed proof sizes of the versions its range allows
    // that are known dead (its every edge's), and how many it allows that
    // are not yet; together, as a death updates both.
    struct Pending {
      uint64_t Below = 0;
      uint32_t Waiting = 0;
    };
    std::vector<Pending> Pend(Groups);
    // What the loops below read next is anywhere in a large array (an
    // edge an offer reads, a group a death visits, where the next
    // candidate's list starts in Allowing): asked of memory a few places
    // (Ahead) or a candidate ahead, where each was a wait on a cache miss.
    constexpr uint32_t Ahead = 4;
    // Offers each edge of group G whose version is not known dead: all its
    // dependee versions are.
    auto Offer = [&](uint32_t G) {
      uint32_t Steps = versionsIn(GroupsOf[G].Runs, GroupsOf[G].RunsEnd);
      // Its dependency, a step per version, perhaps "no versions" and one
      // more; at most 2^62, summed as far as that.
      uint64_t Own = 2 + Steps + (Steps == 0 ? 1 : 0);
      uint64_t Total =
          std::min<uint64_t>(Pend[G].Below + Own, uint64_t(1) << 62);
      uint32_t End = GroupStart[G + 1];
      for (uint32_t A = GroupStart[G]; A < End; ++A) {
        if (A + Ahead < End)
          __builtin_prefetch(&Pr.Edges[GroupEdges[A + Ahead]]);
        const PruneEdge &Edge = Pr.Edges[GroupEdges[A]];
        if (!Size[Base[Edge.Depender] + Edge.Index])
          Queue.push({Total, Edge.Depender, Edge.Index, GroupEdges[A]});
      }
    };
    for (uint32_t G = 0; G < Groups; ++G)
      if (!(Pend[G].Waiting =
                versionsIn(GroupsOf[G].Runs, GroupsOf[G].RunsEnd)))
        Offer(G);
    while (!Queue.empty()) {
      Candidate C = Queue.top();
      Queue.pop();
      size_t Slot = Base[C.Pkg] + C.Index;
      // The next candidate of the same size, looked at without taking the
      // next size: C's offers may be smaller than that.
      if (const Candidate *Next = Queue.peekSameKey())
        __builtin_prefetch(Allowing.data() +
                           Start[Base[Next->Pkg] + Next->Index]);
      if (Size[Slot])
        continue; // known dead already, by a smaller proof
      Size[Slot] = C.Size;
      Pr.Deaths.push_back({C.Pkg, C.Index, C.Edge});
      size_t End = Start[Slot + 1];
      for (size_t A = Start[Slot]; A < End; ++A) {
        if (A + Ahead < End)
          __builtin_prefetch(&Pend[Allowing[A + Ahead]]);
        Pending &Group = Pend[Allowing[A]];
        Group.Below =
            std::min<uint64_t>(Group.Below + C.Size, uint64_t(1) << 62);
        if (--Group.Waiting == 0)
          Offer(Allowing[A]);
      }
    }
    Work.Pruned = Pr.Deaths.size();
    if (Pr.Deaths.empty())
      return false;

    // The incompatibilities, in the order found (a dependency's dependee
    // versions died before it): an unavailable version's at once, and one
    // per run of adjacent versions that die by the same dependency (the
    // same dependee and range, as addIncompatibilitiesFor() widens them),
    // without its proof (materialize()).
    // Why 0 (the root's incompatibility): not given one yet. KilledBy:
    // per version by slot, the group of the dependency it died by (NoEdge:
    // it lives, or is unavailable), read where a run grows: its neighbours
    // join it where they died by the same dependee and range, that is the
    // same group, read beside its own, where their edges are anywhere.
    Pr.Why.assign(Base.back(), 0);
    std::vector<uint32_t> KilledBy(Base.back(), NoEdge);
    for (const PruneDeath &X : Pr.Deaths)
      if (X.Edge != NoEdge)
        KilledBy[Base[X.Pkg] + X.Index] = GroupOf[X.Edge];
    // Per version (by slot): the run its incompatibility rules out, once
    // made (ruledOut()).
    std::vector<std::pair<uint32_t, uint32_t>> RunAt(Base.back());
    llvm::DenseMap<std::pair<uint32_t, uint64_t>, SetId> SpanOf;
    // Per group: whether its dead runs' proofs end in "no versions".
    constexpr uint8_t Unasked = 2;
    std::vector<uint8_t> NeedsNoneOf(Groups, Unasked);
    // Room for the dead runs and for what the rest of the search adds (a
    // few per package it still decides): the arrays are the largest the
    // solve has, and doubling them for the last few hundred would copy
    // them whole into twice their size, fresh pages the system zeroes.
    size_t Room = Pr.Deaths.size() + 2 * Names.size();
    Store.reserve(Store.size() + Room);
    Meta.reserve(Meta.size() + Room);
    Tainted.reserve(Tainted.size() + Room);
    Pr.LazyBase = IncompId(Store.size());
    Pr.Lazy.clear();
    Pr.Lazy.reserve(Pr.Deaths.size()); // at most one per death
    // And room in each package's list of incompatibilities for its dead
    // versions' (at most one each), where it grew by doubling.
    {
      std::vector<uint32_t> Dead(Names.size(), 0);
      for (const PruneDeath &X : Pr.Deaths)
        ++Dead[X.Pkg];
      for (PackageId Pkg = 0; Pkg < Names.size(); ++Pkg)
        if (Dead[Pkg])
          ByPackage[Pkg].reserve(ByPackage[Pkg].size() + Dead[Pkg]);
    }
    Pr.RunsOf.assign(Names.size(), 0);
    for (uint32_t D = 0; D < Pr.Deaths.size(); ++D) {
      const PruneDeath &X = Pr.Deaths[D];
      // This package's slots.
      IncompId *Why = &Pr.Why[Base[X.Pkg]];
      const uint32_t *GroupAt = &KilledBy[Base[X.Pkg]];
      std::pair<uint32_t, uint32_t> *RunOf = &RunAt[Base[X.Pkg]];
      if (Why[X.Index])
        continue; // in the run of an earlier one
      if (X.Edge == NoEdge) {
        PackageInfo &I = info(X.Pkg);
        const V &Version = I.Ascending[X.Index];
        I.KnownInvalid = I.KnownInvalid.unionWith(VS::exactly(Version));
        IncompatibilityT U;
        U.Kind = CauseKind::Unavailable;
        U.Terms.emplace_back(Names[X.Pkg],
                             TermT::positive(VS::exactly(Version)));
        U.Text = Reasons[depsAt(X.Pkg, I, X.Index).Reason];
        Why[X.Index] = addIncompatibility(std::move(U));
        Pr.Ruled.push_back(Why[X.Index]);
        Pr.RuledCells.push_back(0);
        ++Pr.RunsOf[X.Pkg];
        RunOf[X.Index] = {X.Index, X.Index};
        continue;
      }
      const uint32_t SameGroup = GroupAt[X.Index];
      const SetId SameRange = GroupsOf[SameGroup].Range;
      auto Joins = [&](size_t K) { return GroupAt[K] == SameGroup && !Why[K]; };
      uint32_t From = X.Index, To = X.Index + 1;
      while (From > 0 && Joins(From - 1))
        --From;
      while (To < Count[X.Pkg] && Joins(To))
        ++To;
      // An empty range ends in "no versions" at once, as a search finds it.
      // What the dead versions a range allows rule out is the same for
      // every edge of its group: they all died, and their runs were made,
      // before the first version that dies by it (they die first), and a
      // run once made stays. So it is asked once per group.
      auto AsksNone = [&] {
        return sets().get(SameRange).isEmpty() ||
               !sets().get(SameRange).isSubsetOf(
                   ruledOut(Pr.Edges[X.Edge], Base, RunAt));
      };
      uint8_t &Needs = NeedsNoneOf[SameGroup];
      if (Needs == Unasked)
        Needs = AsksNone();
      const bool NeedsNone = Needs;
      assert(NeedsNone == AsksNone() &&
             "a group's dead versions rule out the same for all its edges");
      // Its set, by the package's list of versions: the same run of the
      // same versions is the same set, built and interned once.
      auto [Span, NewSpan] =
          SpanOf.try_emplace({ListOfPackage[X.Pkg], uint64_t(From) << 32 | To});
      if (NewSpan)
        Span->second = sets().intern(span(info(X.Pkg), From, To));
      IncompId Id = storeRun(X.Pkg, TermKey{Span->second, true});
      index(Id);
      if (Pr.Lazy.size() <= Id - Pr.LazyBase)
        Pr.Lazy.resize(Id - Pr.LazyBase + 1);
      Pr.Lazy[Id - Pr.LazyBase] = LazyProof{D, From, To, NeedsNone, true};
      Pr.Ruled.push_back(Id);
      ++Pr.RunsOf[X.Pkg];
      Pr.RuledCells.push_back(Count[X.Pkg] <= 64 ? cellsOf(From, To) : 0);
      for (uint32_t K = From; K < To; ++K) {
        Why[K] = Id;
        RunOf[K] = {From, To};
      }
    }
    ListOfPackage.resize(Names.size(), NoList);
    Pr.ListOf = std::move(ListOfPackage);
    return true;
  }

  /// Rules out every version pruning found dead (prune()), before anything
  /// else is propagated at this level, and propagates from their packages:
  /// where the search learned the same before pruning, by a longer way, a
  /// proof then rests on the pruned version's own incompatibility (a query
  /// about a dead version: the pin and that one). False when that proves
  /// that no solution exists.
  bool rulePrunedOut() {
    // Each package once (Queued is free outside propagate(): a mark), then
    // in order: a package has many dead runs.
    std::vector<PackageId> Changed;
    auto Note = [&](PackageId Pkg) {
      if (!Queued[Pkg]) {
        Queued[Pkg] = true;
        Changed.push_back(Pkg);
      }
    };
    // Nearly every one derives an assignment, and what is propagated from
    // them and decided after adds about one per package (the unique 2,000 x
    // 20's trail ends 2,004 past its 37,931 dead runs): room for both, where
    // room for the runs alone was outgrown and doubled at the end.
    Solution.reserveMore(Dead.Ruled.size() + 2 * Names.size());
    // And in each package's list of its own, room for its runs, where it
    // grew by doubling (a package has about 19).
    for (PackageId Pkg = 0; Pkg < Dead.RunsOf.size(); ++Pkg)
      if (Dead.RunsOf[Pkg])
        Solution.reserveOwn(Pkg, Dead.RunsOf[Pkg]);
    Dead.Steps.resize(Dead.Ruled.size());
    // Per package: how its runs are ruled out in this pass. Where nothing
    // is known of it yet and every run is a span of at most 64 versions
    // (nearly every package), by their cells' bits (Dead.RuledCells): a
    // run is contradicted exactly when its cells are ruled out already (a
    // span is the union of its versions' cells, which do not overlap), and
    // else its derivation is left pending (derivePending()); the last one
    // gets the set of every cell ruled out (cellSet()) when the pass ends.
    // Each run's union with the ones before was otherwise built and
    // interned as it was ruled out, and nearly all are never read. Else,
    // or from an unavailable version on, by sets (ruleOut()).
    enum : uint8_t { Unseen, ByCells, BySets };
    std::vector<uint8_t> Mode(Names.size(), Unseen);
    std::vector<uint64_t> Cells(Names.size(), 0);
    // Per package: where in its list blockByLast() found its last run's
    // entry (the runs come in ascending ids, and the list is in them).
    std::vector<uint32_t> Found(Names.size(), 0);
    std::vector<PackageId> Pending;
    auto Settle = [&](PackageId Pkg) {
      Solution.settle(Pkg, {cellSet(Pkg, Cells[Pkg]), false});
    };
    for (size_t K = 0; K < Dead.Ruled.size(); ++K) {
      IncompId Id = Dead.Ruled[K];
      PackageId Pkg = Meta[Id].packages().front();
      const uint64_t Run = Dead.RuledCells[K];
      uint8_t &M = Mode[Pkg];
      if (M == Unseen) {
        M = Run && Solution.knownKey(Pkg).Set == NoSet ? ByCells : BySets;
        if (M == ByCells)
          Pending.push_back(Pkg);
      } else if (M == ByCells && !Run) {
        Settle(Pkg); // by sets from here
        M = BySets;
      }
      PackageId Derived = 0;
      Outcome O = Outcome::None;
      if (M == BySets) {
        O = ruleOut(Id, Derived, Dead.Steps[K]);
      } else {
        ++Work.Visits;           // as ruleOut() counts its look at the run
        if (Run & ~Cells[Pkg]) { // not ruled out already
          Cells[Pkg] |= Run;
          Solution.derivePending(Pkg, Meta[Id].keys()[0].Set, Id,
                                 Chronological ? std::optional<unsigned>(0)
                                               : std::nullopt);
          Derived = Pkg;
          O = Outcome::Derived;
        }
      }
      if (O == Outcome::Derived) {
        Note(Derived);
        blockByLast(Id, Derived, &Found[Derived]);
      } else if (O == Outcome::Conflict)
        Note(Pkg); // propagate() resolves it
    }
    for (PackageId Pkg : Pending)
      if (Mode[Pkg] == ByCells)
        Settle(Pkg);
    for (PackageId Pkg : Changed)
      Queued[Pkg] = false;
    std::sort(Changed.begin(), Changed.end());
    for (PackageId Pkg : Changed)
      if (!propagate(Pkg))
        return false;
    return true;
  }

  /// propagateIncompatibility() of a pruned version's incompatibility (one
  /// positive term, "P in S"), asked once per dead run at the root's level.
  /// Where what is known of P is negative ("not X", nearly always: what
  /// the runs before ruled out) the term is contradicted exactly when S is
  /// ruled out already, that is when X with S is X again; else "not (X with
  /// S)" is derived. That union is the derivation's own (memoized in the
  /// set table), so it answers the relation too, which is not asked.
  /// Step: what the last call for Id found (Pruning::Steps), reused
  /// where what is known of the package is the same set again.
  Outcome ruleOut(IncompId Id, PackageId &Derived, Pruning::RuledStep &Step) {
    const TermIndex &T = Meta[Id];
    assert(T.packages().size() == 1 && T.keys()[0].Positive &&
           "a pruned version's incompatibility is one positive term");
    PackageId Pkg = T.packages()[0];
    TermKey Known = Solution.knownKey(Pkg);
    if (Known.Set == NoSet || Known.Positive)
      return propagateIncompatibility(Id, Derived);
    ++Work.Visits;
    if (Step.Before != Known) {
      Step.Before = Known;
      Step.After = sets().difference(Known, T.keys()[0]);
    }
    TermKey Without = Step.After;
    assert(Without == sets().difference(Known, T.keys()[0]) &&
           "a step remembered is the set table's answer");
    assert((Without.Set == Known.Set) ==
               (sets().relation(Known, T.keys()[0]) == SetRelation::Disjoint) &&
           "the union is the known set exactly where the term is "
           "contradicted");
    if (Without.Set == Known.Set)
      return Outcome::None;
    Derived = Pkg;
    // As propagateIncompatibility() derives it: no other term, so it holds
    // from level 0 once the solver keeps such levels.
    Solution.deriveAccumulated(Pkg, Without, Id,
                               Chronological ? std::optional<unsigned>(0)
                                             : std::nullopt);
    return Outcome::Derived;
  }

  /// The cells of the versions From to To (From below To, To at most 64)
  /// as bits (Pruning::RuledCells): their span's.
  static uint64_t cellsOf(size_t From, size_t To) {
    assert(From < To && To <= 64 && "a run of at most 64 versions");
    return (~uint64_t(0) >> (64 - (To - From))) << From;
  }

  /// The set of the versions of Pkg's cells Bits (Pruning::RuledCells): the
  /// span of each run of adjacent ones, joined. Made once per list of
  /// versions and bits: packages with the same versions share it.
  SetId cellSet(PackageId Pkg, uint64_t Bits) {
    assert(Dead.ListOf[Pkg] != ~uint32_t(0) && "a pruned package's list");
    auto [It, New] = Dead.CellSets.try_emplace({Dead.ListOf[Pkg], Bits}, 0);
    if (!New)
      return It->second;
    const PackageInfo &I = info(Pkg);
    VS Out = VS::empty();
    for (uint64_t Left = Bits; Left;) {
      unsigned From = unsigned(std::countr_zero(Left));
      unsigned To = From + unsigned(std::countr_one(Left >> From));
      VS Span = span(I, From, To);
      Out = Out.isEmpty() ? std::move(Span) : Out.unionWith(Span);
      Left = To >= 64 ? 0 : Left & (~uint64_t(0) << To);
    }
    return It->second = sets().intern(std::move(Out));
  }

  /// Gives the entry of incompatibility Id in Pkg's list, whose one term
  /// about Pkg the last assignment to Pkg contradicts (Id derived it), that
  /// assignment as its blocking one: propagation's next visit from the list
  /// ends there (it would find the term contradicted by the set table and
  /// block the entry so). The list is in ascending ids (index()).
  /// \p From: where the caller's last call for Pkg found its entry, for a
  /// caller that asks about each package's incompatibilities in ascending
  /// ids (rulePrunedOut(): a package has about 19 dead runs), the entry
  /// then found by a step or a few, where a binary search took several.
  void blockByLast(IncompId Id, PackageId Pkg, uint32_t *From = nullptr) {
    std::vector<ListEntry> &L = ByPackage[Pkg];
    auto Less = [](const ListEntry &E, IncompId Want) { return E.Id < Want; };
    auto It = L.begin();
    if (From) {
      assert((*From == 0 || L[*From - 1].Id < Id) && "asked in ascending ids");
      It += *From;
      while (It != L.end() && Less(*It, Id))
        ++It;
      *From = uint32_t(It - L.begin());
    } else {
      It = std::lower_bound(L.begin(), L.end(), Id, Less);
    }
    if (It == L.end() || It->Id != Id)
      return;
    const auto &By = Solution.last(Pkg);
    It->BlockedAt = By.Index;
    It->BlockStamp = By.Stamp;
  }

  /// The incompatibilities of the dead versions of E's dependee that E's
  /// range allows (all of them dead), each once, in ascending order.
  llvm::SmallVector<IncompId, 8> deadAllowed(const PruneEdge &E) const {
    llvm::SmallVector<IncompId, 8> Out;
    for (uint32_t R = E.Runs; R < E.RunsEnd; ++R)
      for (size_t K = Dead.Runs[R].first; K < Dead.Runs[R].second; ++K)
        if (IncompId Id = Dead.Why[Dead.Base[E.Dependee] + K];
            Out.empty() || Out.back() != Id)
          Out.push_back(Id);
    return Out;
  }

  /// How many versions the runs From to To (in Dead.Runs) hold.
  uint32_t versionsIn(uint32_t From, uint32_t To) const {
    uint32_t N = 0;
    for (uint32_t R = From; R < To; ++R)
      N += Dead.Runs[R].second - Dead.Runs[R].first;
    return N;
  }

  /// What the incompatibilities of the dead versions E's range allows rule
  /// out together, while prune() makes them: per run of the range, the span
  /// from its first one's run to its last one's, unless an unavailable
  /// version among them rules out only itself. RunAt: per version (by
  /// slot, from Base[Pkg] on), the run (From, To in Ascending) its
  /// incompatibility rules out; {K, K} for an unavailable version K, which
  /// rules out only itself.
  VS ruledOut(const PruneEdge &E, const std::vector<size_t> &Base,
              const std::vector<std::pair<uint32_t, uint32_t>> &RunAt) {
    const PackageInfo &I = info(E.Dependee);
    const std::pair<uint32_t, uint32_t> *Runs = &RunAt[Base[E.Dependee]];
    VS Out = VS::empty();
    auto Add = [&](VS S) {
      Out = Out.isEmpty() ? std::move(S) : Out.unionWith(S);
    };
    for (uint32_t R = E.Runs; R < E.RunsEnd; ++R) {
      auto [From, To] = Dead.Runs[R];
      bool Spans = true;
      for (uint32_t K = From; K < To && Spans; ++K)
        Spans = Runs[K].first != Runs[K].second;
      if (Spans) {
        Add(span(I, Runs[From].first, Runs[To - 1].second));
        continue;
      }
      for (uint32_t K = From; K < To; ++K) {
        auto [RunFrom, RunTo] = Runs[K];
        Add(RunFrom == RunTo ? VS::exactly(I.Ascending[K])
                             : span(I, RunFrom, RunTo));
      }
    }
    return Out;
  }

  /// The number of incompatibilities a dead run's proof adds to the ones it
  /// rests on (itself included): its dependency, a step per incompatibility
  /// of the dead versions the range allows (the last one itself), and "no
  /// versions" with a last step where the range has more.
  size_t proofSize(const LazyProof &L) const {
    const PruneEdge &E = Dead.Edges[Dead.Deaths[L.Death].Edge];
    return 1 + deadAllowed(E).size() + (L.NeedsNone ? 2 : 0);
  }

  /// Dead run Id's proof while it is not written yet, else null.
  LazyProof *lazyOf(IncompId Id) {
    if (Id < Dead.LazyBase || Id - Dead.LazyBase >= Dead.Lazy.size())
      return nullptr;
    LazyProof &L = Dead.Lazy[Id - Dead.LazyBase];
    return L.Pending ? &L : nullptr;
  }

  /// Writes the leaves of dead run L's proof if they are not written yet
  /// (Proofs, ids with ProofBit): its dependency, and "no versions" of what
  /// is left of its range once the dead versions it allows are taken out,
  /// where the proof ends so. They are all that a walk of the proof's
  /// externals reads of it (externalsOf()); materialize() writes the steps
  /// between them, which only a whole derivation reads.
  void writeLeaves(LazyProof &L) {
    if (L.DepLeaf != NoLeaf)
      return;
    const ProofParts Q = partsOf(L);
    L.DepLeaf = addStep(dependency(Names[Q.X.Pkg], Q.Run, Q.DepName, Q.Set));
    if (!L.NeedsNone)
      return;
    VS Left = Q.Set;
    for (IncompId Other : deadAllowed(Q.E))
      Left = Left.minus(sets().get(Meta[Other].keys()[0].Set));
    assert((!Left.isEmpty() || Q.Set.isEmpty()) &&
           "the range has more than the dead versions");
    IncompatibilityT None;
    None.Kind = CauseKind::NoVersions;
    None.Terms.emplace_back(Q.DepName, TermT::positive(std::move(Left)));
    L.NoneLeaf = addStep(std::move(None));
  }

  /// What dead run L's proof is made of: the death that names its
  /// dependency, that dependency's edge, its dependee's name and range,
  /// and the run of versions it rules out.
  struct ProofParts {
    const PruneDeath &X;
    const PruneEdge &E;
    P DepName;
    const VS &Set;
    TermT Run;
  };
  ProofParts partsOf(const LazyProof &L) {
    const PruneDeath &X = Dead.Deaths[L.Death];
    const PruneEdge &E = Dead.Edges[X.Edge];
    PackageInfo &I = info(X.Pkg);
    const DepEntry Dep = depsAt(X.Pkg, I, X.Index).On[E.Position];
    return {X, E, DepNames[Dep.Name], sets().get(Dep.Set),
            TermT::positive(span(I, L.From, L.To))};
  }

  /// N as a step of a dead run's proof: its id in Proofs, with ProofBit.
  IncompId addStep(IncompatibilityT N) {
    Proofs.push_back(std::move(N));
    return IncompId(Proofs.size() - 1) | ProofBit;
  }

  /// Writes the proof of dead run Id (prune()) if it is not written yet:
  /// its dependency, resolved with the incompatibility of each dead version
  /// the dependency allows, one at a time, then with "no versions" for
  /// what is left of its range, as conflict resolution would derive it.
  /// The steps go to Proofs (ids with ProofBit), never renumbered by
  /// forgetQuery(); the last one is Id itself. The leaves are the ones
  /// writeLeaves() wrote, where a walk of externals asked for them first.
  void materialize(IncompId Id) {
    LazyProof *It = lazyOf(Id);
    if (!It)
      return;
    // What its count reads from the lazy proof, kept before that goes.
    if (Dead.Own[Id] == NotIndexed)
      indexDeadProof(Id);
    writeLeaves(*It);
    const LazyProof L = *It;
    It->Pending = false;
    const ProofParts Q = partsOf(L);
    IncompId Current = L.DepLeaf;
    VS Left = Q.Set;
    auto Step = [&](IncompId Other, bool Last) {
      if (Last) {
        Store[Id].Cause1 = Current;
        Store[Id].Cause2 = Other;
        return;
      }
      IncompatibilityT New;
      New.Kind = CauseKind::Derived;
      New.Cause1 = Current;
      New.Cause2 = Other;
      New.Terms.emplace_back(Names[Q.X.Pkg], Q.Run);
      if (!Left.isEmpty())
        New.Terms.emplace_back(Q.DepName, TermT::negative(Left));
      Current = addStep(std::move(New));
    };
    llvm::SmallVector<IncompId, 8> Others = deadAllowed(Q.E);
    assert((L.NeedsNone || !Others.empty()) && "a proof of one step at least");
    for (size_t K = 0; K < Others.size(); ++K) {
      Left = Left.minus(sets().get(Meta[Others[K]].keys()[0].Set));
      Step(Others[K], !L.NeedsNone && K + 1 == Others.size());
    }
    if (L.NeedsNone)
      Step(L.NoneLeaf, true);
  }

  /// The versions from the one at From in I.Ascending up to the one at To
  /// (from any lower one where From is the oldest, up to any higher one
  /// where To is past the newest).
  static VS span(const PackageInfo &I, size_t From, size_t To) {
    bool Low = From > 0, High = To < I.Ascending.size();
    if (Low && High)
      return VS::between(I.Ascending[From], I.Ascending[To]);
    if (Low)
      return VS::atLeast(I.Ascending[From]);
    if (High)
      return VS::lessThan(I.Ascending[To]);
    return VS::any();
  }

  /// The tree of the external incompatibilities the proof of Top rests on
  /// alone (DerivationTree::ExternalsOnly), each made once by Make(Id), in
  /// the order a depth-first walk (cause 1 before cause 2) meets them, as
  /// DerivationTree::externals() lists them: the derived ones are walked,
  /// not copied, and a dead run's proof not written yet is walked by its
  /// leaves (writeLeaves()) and the dead runs it rests on, its steps left
  /// unwritten.
  template <class MakeF>
  DerivationTree<P, VS> externalsOf(IncompId Top, MakeF &Make) {
    DerivationTree<P, VS> T;
    T.RootPackage = Root;
    T.ExternalsOnly = true;
    walkExternals(Top, [&](IncompId Id) { T.Nodes.push_back(Make(Id)); });
    return T;
  }

  /// The external incompatibilities of externalsOf(Top), in its order,
  /// read where they are kept (CauseView): a proof step, or one of the
  /// store with its terms, or with its packages' names and its sets where
  /// it keeps none. Valid until the store, the proof steps or the names
  /// change.
  std::vector<CauseView<P, VS>> causesAt(IncompId Top) {
    std::vector<IncompId> Ids;
    walkExternals(Top, [&](IncompId Id) {
      if (!(Id & ProofBit))
        materialize(Id);
      Ids.push_back(Id);
    });
    // Made once the walk has written every step it reads.
    std::vector<CauseView<P, VS>> Out;
    Out.reserve(Ids.size());
    for (IncompId Id : Ids) {
      CauseView<P, VS> &C = Out.emplace_back();
      if (Id & ProofBit) {
        C.read(Proofs[Id & ~ProofBit]);
        continue;
      }
      const IncompatibilityT &I = Store[Id];
      const TermIndex &T = Meta[Id];
      if (I.Terms.size() == T.packages().size()) {
        C.read(I);
        continue;
      }
      C.Kind = I.Kind;
      C.Text = &I.Text;
      for (size_t K = 0; K < T.packages().size(); ++K)
        C.Terms.push_back({&Names[T.packages()[K]],
                           &sets().get(T.keys()[K].Set), T.keys()[K].Positive});
    }
    return Out;
  }

  /// externalsOf()'s walk: Visit(Id) for each external incompatibility.
  template <class VisitF> void walkExternals(IncompId Top, VisitF Visit) {
    ProofMark.resize(Store.size(), 0);
    ++ProofStamp;
    std::vector<IncompId> Stack{Top};
    while (!Stack.empty()) {
      IncompId Id = Stack.back();
      Stack.pop_back();
      // The steps of a proof written during the walk are numbered past
      // the marks made at its start.
      if ((Id & ProofBit) && StepMark.size() < Proofs.size())
        StepMark.resize(Proofs.size(), 0);
      uint64_t &Mark = Id & ProofBit ? StepMark[Id & ~ProofBit] : ProofMark[Id];
      if (Mark == ProofStamp)
        continue;
      Mark = ProofStamp;
      if (LazyProof *L = Id & ProofBit ? nullptr : lazyOf(Id)) {
        // A dead run's proof not written: its leaves and the dead runs it
        // rests on, in the order a walk of its steps would meet them (its
        // dependency, each dead run, "no versions"), without the steps.
        writeLeaves(*L);
        if (L->NoneLeaf != NoLeaf)
          Stack.push_back(L->NoneLeaf);
        llvm::SmallVector<IncompId, 8> Others =
            deadAllowed(Dead.Edges[Dead.Deaths[L->Death].Edge]);
        Stack.insert(Stack.end(), Others.rbegin(), Others.rend());
        Stack.push_back(L->DepLeaf);
        continue;
      }
      const IncompatibilityT &I =
          Id & ProofBit ? Proofs[Id & ~ProofBit] : Store[Id];
      if (I.Kind == CauseKind::Derived) {
        Stack.push_back(I.Cause2);
        Stack.push_back(I.Cause1);
        continue;
      }
      Visit(Id);
    }
  }

  /// Whether the proof of incompatibility Top rests on at most Bound
  /// incompatibilities (itself included, each counted once). A dead
  /// version's proof not written yet (materialize()) is counted as written.
  /// Where it does, their count is kept in ProofCount.
  bool proofWithin(IncompId Top, unsigned Bound) {
    ProofCount = 0;
    ProofMark.resize(Store.size(), 0);
    StepMark.resize(Proofs.size(), 0);
    ++ProofStamp;
    std::vector<IncompId> Stack{Top};
    size_t Count = 0;
    while (!Stack.empty()) {
      IncompId Id = Stack.back();
      Stack.pop_back();
      uint64_t &Mark = Id & ProofBit ? StepMark[Id & ~ProofBit] : ProofMark[Id];
      if (Mark == ProofStamp)
        continue;
      Mark = ProofStamp;
      if (!(Id & ProofBit) && Id < Dead.Own.size() && Dead.Own[Id]) {
        // A dead version's: its proof's own steps (written or not) and the
        // dead versions' it rests on, from the index.
        if (Dead.Own[Id] == NotIndexed)
          indexDeadProof(Id);
        Count += Dead.Own[Id];
        auto [From, To] = Dead.RestsAt[Id];
        Stack.insert(Stack.end(), Dead.Rests.begin() + From,
                     Dead.Rests.begin() + To);
      } else {
        ++Count;
        const IncompatibilityT &I =
            Id & ProofBit ? Proofs[Id & ~ProofBit] : Store[Id];
        if (I.Kind == CauseKind::Derived) {
          Stack.push_back(I.Cause2);
          Stack.push_back(I.Cause1);
        }
      }
      if (Count > Bound)
        return false;
    }
    ProofCount = Count;
    return true;
  }

  /// What dead version incompatibility Id's proof counts (proofWithin()),
  /// indexed at its first count: the incompatibilities it adds
  /// (proofSize(), the same whether materialize() has written it or not; 1
  /// for an unavailable version) and the dead versions' incompatibilities
  /// it rests on.
  void indexDeadProof(IncompId Id) {
    assert(!(Id & ProofBit) && "a proof step is not a dead version's");
    const LazyProof *Lazy = lazyOf(Id);
    uint32_t From = uint32_t(Dead.Rests.size());
    Dead.RestsAt[Id] = {From, From};
    if (!Lazy) {
      // An unavailable version's (materialize() indexes a proof before it
      // writes it).
      assert(Store[Id].Kind == CauseKind::Unavailable && "a proof unindexed");
      Dead.Own[Id] = 1;
      return;
    }
    Dead.Own[Id] = uint32_t(proofSize(*Lazy));
    for (IncompId Other :
         deadAllowed(Dead.Edges[Dead.Deaths[Lazy->Death].Edge]))
      Dead.Rests.push_back(Other);
    Dead.RestsAt[Id].second = uint32_t(Dead.Rests.size());
  }

  /// Learns the root cause of a satisfied incompatibility and backjumps;
  /// returns it, or nothing when it proves that no solution exists (or when
  /// a query reaches its limit of learned ones: Exhausted, no proof).
  std::optional<IncompId> resolveConflict(IncompId Conflict) {
    using Assignment = typename PartialSolution<V, VS>::Assignment;
    bool Learned = false;
    ++Work.Conflicts;
    Satisfiers.clear();
    IncompId Current = Conflict;
    while (!isFailure(Current)) {
      if (Querying && Work.Learned >= Limit.Learned) {
        Exhausted = true; // neither a solution nor a proof
        return std::nullopt;
      }
      llvm::ArrayRef<PackageId> Pkgs = Meta[Current].packages();
      size_t MostRecentTerm = 0;
      const Assignment *MostRecent = nullptr;
      std::optional<TermKey> Difference;
      // Level 1 is the root decision; stopping there keeps the root close to
      // the conclusion in explanations. PreviousLevel is the highest level
      // the other terms' satisfiers are assigned at, HoldsBelow the highest
      // they hold from: the same until the solver backtracks
      // chronologically, after which a derivation may be assigned above the
      // level of its premises (see below).
      unsigned PreviousLevel = 1, HoldsBelow = 1;
      auto Previous = [&](const Assignment &A) {
        PreviousLevel = std::max(PreviousLevel, A.Level);
        HoldsBelow = std::max(HoldsBelow, holdsFrom(A));
      };
      for (size_t K = 0; K < Pkgs.size(); ++K) {
        TermKey Want = Meta[Current].keys()[K];
        const Assignment &Satisfier = satisfier(Pkgs[K], Want);
        if (!MostRecent) {
          MostRecentTerm = K;
          MostRecent = &Satisfier;
        } else if (MostRecent->Index < Satisfier.Index) {
          Previous(*MostRecent);
          MostRecentTerm = K;
          MostRecent = &Satisfier;
          Difference.reset();
        } else {
          Previous(Satisfier);
        }
        if (MostRecentTerm == K) {
          // The satisfier may satisfy the term only together with earlier
          // assignments (the "partial satisfier" case).
          TermKey D = sets().difference(assignedTerm(*MostRecent), Want);
          if (sets().get(D.Set).isEmpty()) {
            Difference.reset();
          } else {
            Difference = D;
            Previous(satisfier(Pkgs[K], D.inverse()));
          }
        }
      }

      // A derivation assigned above the other satisfiers whose premises
      // hold no higher than theirs is resolved with its cause, not taken as
      // the one term to undo: the incompatibility was broken already where
      // the others hold, and backtracking there would undo it only for its
      // cause to derive it again (and break this once more).
      if (MostRecent->isDecision() || (PreviousLevel < MostRecent->Level &&
                                       HoldsBelow < holdsFrom(*MostRecent))) {
        // The incompatibility is almost satisfied at every level from
        // PreviousLevel up to the one below its most recent satisfier's:
        // there its other terms are satisfied (their satisfiers are at
        // PreviousLevel or lower) and that one's term is neither satisfied
        // (its satisfier is gone) nor contradicted (what is known of its
        // package is wider than where it was satisfied). Backjumping far
        // throws away hundreds of decisions that had nothing to do with the
        // conflict and are then made again, with all their propagation;
        // beyond ChronologicalDistance levels the solver backtracks only
        // below the satisfier's level instead (chronological backtracking,
        // Nadel and Ryvchin, SAT 2018). The term it then derives is
        // assigned at that level, higher than the one it holds at: a
        // backtrack below it drops it, and if the incompatibility is
        // broken again later, that is a conflict like any other.
        unsigned Target = PreviousLevel;
        if (MostRecent->Level > PreviousLevel &&
            MostRecent->Level - PreviousLevel - 1 > ChronologicalDistance)
          Target = MostRecent->Level - 1;
        if (Target != PreviousLevel)
          Chronological = true;
        Work.Backjumped += Solution.decisionLevel() - Target;
        Dropped.clear();
        Solution.backtrack(Target, Chronological ? &Dropped : nullptr);
        if (Learned)
          index(Current);
        return Current;
      }

      IncompId SatisfierCause = *MostRecent->Cause;
      PackageId SatisfierPackage = MostRecent->Package;
      // The terms of the derived incompatibility, as
      // IncompatibilityT::make() would build them from this list (the
      // root's positive terms dropped from a list of more than one, terms
      // of one package intersected in the first one's place), merged by
      // package id rather than by comparing names: a derivation can carry
      // hundreds of terms.
      // Its terms are kept by package id and set (built only for the
      // incompatibilities an explanation reads: termsFromKeys()).
      llvm::SmallVector<std::pair<PackageId, TermKey>, 16> Raw;
      for (size_t K = 0; K < Pkgs.size(); ++K)
        if (K != MostRecentTerm)
          Raw.emplace_back(Pkgs[K], Meta[Current].keys()[K]);
      llvm::ArrayRef<PackageId> CausePkgs = Meta[SatisfierCause].packages();
      for (size_t K = 0; K < CausePkgs.size(); ++K)
        if (CausePkgs[K] != SatisfierPackage)
          Raw.emplace_back(CausePkgs[K], Meta[SatisfierCause].keys()[K]);
      if (Difference)
        Raw.emplace_back(SatisfierPackage, Difference->inverse());
      IncompatibilityT New;
      New.Kind = CauseKind::Derived;
      std::vector<PackageId> NewIds;
      llvm::SmallVector<TermKey, 16> NewKeys;
      MergeMark.resize(Names.size(), 0);
      MergeSlot.resize(Names.size(), 0);
      ++MergeStamp;
      for (const auto &[Pkg, Key] : Raw) {
        if (Raw.size() != 1 && Pkg == RootId && Key.Positive)
          continue;
        if (MergeMark[Pkg] == MergeStamp) {
          TermKey &Existing = NewKeys[MergeSlot[Pkg]];
          Existing = sets().intersect(Existing, Key);
          continue;
        }
        MergeMark[Pkg] = MergeStamp;
        MergeSlot[Pkg] = NewKeys.size();
        NewIds.push_back(Pkg);
        NewKeys.push_back(Key);
      }
      New.Cause1 = Current;
      New.Cause2 = SatisfierCause;
      bool IsTainted = Tainted[Current] || Tainted[SatisfierCause];
      Current = store(std::move(New), IsTainted, std::move(NewIds), NewKeys);
      ++Work.Learned;
      Learned = true;
    }
    FailureId = Current;
    return std::nullopt;
  }

  /// The satisfier of Pkg's term T (PartialSolution::satisfier), found
  /// once per conflict: the trail does not change while a conflict is
  /// resolved, and a long resolution carries most terms from one step to
  /// the next.
  const typename PartialSolution<V, VS>::Assignment &satisfier(PackageId Pkg,
                                                               TermKey T) {
    assert(T.Set <= RelationMap::MaxId && "a set id beyond 30 bits");
    uint64_t Key =
        uint64_t(Pkg) << 31 | uint64_t(T.Positive) << 30 | uint64_t(T.Set);
    uint32_t &Place = Satisfiers[Key];
    if (!Place)
      Place = Solution.satisfier(Pkg, T).Index + 1;
    return Solution.assignments()[Place - 1];
  }

  /// Whether incompatibility Id says that no solution exists
  /// (Incompatibility::isFailure, read from its package ids).
  bool isFailure(IncompId Id) const {
    llvm::ArrayRef<PackageId> Pkgs = Meta[Id].packages();
    return Pkgs.empty() || (Pkgs.size() == 1 && Pkgs.front() == RootId);
  }

  /// The terms of incompatibility Id, built from its package ids and sets
  /// (a derived one is stored without them).
  std::vector<Entry> termsFromKeys(IncompId Id) {
    const TermIndex &T = Meta[Id];
    std::vector<Entry> Out;
    Out.reserve(T.packages().size());
    for (size_t K = 0; K < T.packages().size(); ++K)
      Out.emplace_back(Names[T.packages()[K]], sets().term(T.keys()[K]));
    return Out;
  }

  /// The term an assignment assigned: a decision's is what it made known,
  /// a derivation's the inverse of its package's term in its cause.
  TermKey assignedTerm(const typename PartialSolution<V, VS>::Assignment &A) {
    if (A.isDecision())
      return A.key();
    llvm::ArrayRef<PackageId> Pkgs = Meta[*A.Cause].packages();
    size_t K = std::find(Pkgs.begin(), Pkgs.end(), A.Package) - Pkgs.begin();
    assert(K < Pkgs.size() && "a derivation's package is in its cause");
    return Meta[*A.Cause].keys()[K].inverse();
  }

  SetTable<VS> &sets() { return Solution.sets(); }

  static size_t ascendingIndex(const PackageInfo &I, const V &Version) {
    return std::lower_bound(I.Ascending.begin(), I.Ascending.end(), Version) -
           I.Ascending.begin();
  }

  /// Adds the incompatibilities for one version (Index: its position in the
  /// package's Ascending list): its dependencies, each widened to the
  /// adjacent versions that have the same dependency. Their ids, in the
  /// order added.
  std::vector<IncompId> addIncompatibilitiesFor(PackageId Pkg, const V &Version,
                                                size_t Index) {
    std::vector<IncompId> Out;
    PackageInfo &I = info(Pkg);
    const P Package = Names[Pkg]; // a copy: interning may grow Names
    if (Pkg == RootId) {
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
        Out.push_back(addIncompatibility(std::move(U)));
        return Out;
      }
      for (auto &[Dep, Set] : D.On)
        Out.push_back(addIncompatibility(dependency(Root, Depender, Dep, Set)));
      return Out;
    }

    if (I.KnownInvalid.contains(Version))
      return Out;
    const VersionDeps &D = depsAt(Pkg, I, Index);
    if (!D.Available) {
      I.KnownInvalid = I.KnownInvalid.unionWith(VS::exactly(Version));
      IncompatibilityT U;
      U.Kind = CauseKind::Unavailable;
      U.Terms.emplace_back(Package, TermT::positive(VS::exactly(Version)));
      U.Text = Reasons[D.Reason];
      Out.push_back(addIncompatibility(std::move(U)));
      return Out;
    }

    // The dependencies not yet turned into an incompatibility for this
    // version (positions in D.On, by dependee name), with their ids.
    std::vector<std::pair<size_t, PackageId>> Deps;
    for (size_t K = 0; K < D.On.size(); ++K) {
      PackageId Dep = depId(D.On[K].Name);
      auto It = I.AlreadyListed.find(Dep);
      if (It != I.AlreadyListed.end() && It->second.contains(Version))
        continue;
      Deps.emplace_back(K, Dep);
    }
    std::sort(Deps.begin(), Deps.end(), [&](const auto &A, const auto &B) {
      return DepNames[D.On[A.first].Name] < DepNames[D.On[B.first].Name];
    });

    std::vector<size_t> Lower = bounds(Pkg, I, D, Deps, Index, /*Upper=*/false);
    std::vector<size_t> Upper = bounds(Pkg, I, D, Deps, Index, /*Upper=*/true);
    for (size_t K = 0; K < Deps.size(); ++K) {
      const DepEntry &Dep = D.On[Deps[K].first];
      bool HasLower = Lower[K] != NoBound, HasUpper = Upper[K] != NoBound;
      VS Range = VS::any();
      if (HasLower && HasUpper)
        Range = VS::between(I.Ascending[Lower[K]], I.Ascending[Upper[K]]);
      else if (HasLower)
        Range = VS::atLeast(I.Ascending[Lower[K]]);
      else if (HasUpper)
        Range = VS::lessThan(I.Ascending[Upper[K]]);
      auto [It, Inserted] = I.AlreadyListed.emplace(Deps[K].second, Range);
      if (!Inserted)
        It->second = It->second.unionWith(Range);
      const PackageId DepPkg = Deps[K].second;
      if (DepPkg == Pkg) { // one term, both ranges intersected (make())
        Out.push_back(addIncompatibility(
            dependency(Package, TermT::positive(std::move(Range)),
                       DepNames[Dep.Name], sets().get(Dep.Set))));
        continue;
      }
      // By its packages' ids and its sets' keys alone, the dependee's range
      // interned already: no name or set hashed again. termsFromKeys()
      // writes its terms where a report reads them.
      IncompatibilityT New;
      New.Kind = CauseKind::Dependency;
      const TermKey Keys[] = {{sets().intern(std::move(Range)), true},
                              {Dep.Set, false}};
      IncompId Id = store(std::move(New), false, {Pkg, DepPkg}, Keys);
      index(Id);
      Out.push_back(Id);
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

  static bool hasSame(const VersionDeps &D, const DepEntry &Dep) {
    if (!D.Available)
      return false;
    for (const DepEntry &Other : D.On)
      if (Other.Name == Dep.Name)
        return Other.Set == Dep.Set; // interned: equal sets, equal ids
    return false;
  }

  static constexpr size_t NoBound = SIZE_MAX;

  /// For each dependency (positions in D.On, as addIncompatibilitiesFor lists
  /// them), the bound of the run of adjacent versions around Index that
  /// share it, as a position in Ascending: the inclusive lower bound, or the
  /// exclusive upper bound. NoBound when the run reaches the oldest (newest)
  /// version.
  std::vector<size_t>
  bounds(PackageId Pkg, PackageInfo &I, const VersionDeps &D,
         const std::vector<std::pair<size_t, PackageId>> &Deps, size_t Index,
         bool Upper) {
    std::vector<size_t> Out(Deps.size(), NoBound);
    size_t Found = 0;
    size_t Previous = Index;
    size_t N = I.Ascending.size();
    for (size_t Step = 1; Found < Deps.size(); ++Step) {
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
      size_t Boundary = Upper ? J : Previous;
      const VersionDeps &Other = depsAt(Pkg, I, J);
      for (size_t K = 0; K < Deps.size(); ++K) {
        if (Out[K] == NoBound && !hasSame(Other, D.On[Deps[K].first])) {
          Out[K] = Boundary;
          ++Found;
        }
      }
      Previous = J;
    }
    return Out;
  }

  /// How many versions of Pkg the partial solution allows (cached per
  /// generation of the package's assignments).
  size_t allowedCount(PackageId Pkg) {
    AllowedCount &C = Counts[Pkg];
    uint64_t Generation = Solution.generation(Pkg);
    if (C.Generation != Generation) {
      const VS &Set = Solution.knownSet(Pkg);
      const PackageInfo &I = info(Pkg);
      C.Count = 0;
      for (auto [From, To] : Set.rangesIn(I.Ascending))
        C.Count += I.PreferredBefore[To] - I.PreferredBefore[From];
      C.Generation = Generation;
    }
    return C.Count;
  }

  /// During a query: whether Pkg must move away from the first solution.
  bool mustChange(PackageId Pkg) const {
    return !FirstSolution[Pkg] ||
           !Solution.knownSet(Pkg).contains(*FirstSolution[Pkg]);
  }

  /// During a query in which no open package must leave the first solution:
  /// whether the decisions, with the first solution's versions for every
  /// other package it has and the partial solution allows (and no version
  /// of the rest), break no incompatibility. Only some can be broken: the solution of
  /// solve() satisfies every external incompatibility added during it (and
  /// every one about its packages' versions added since: dependencies and
  /// unavailable versions are the same whenever they are asked), so an
  /// external one it does not satisfy is a fact first asked by a query
  /// (LateFacts), and one it does satisfy is broken only through a package
  /// whose version differs from it there (or that is in one and not the
  /// other). The incompatibilities of those packages, the late facts and
  /// this query's own are checked; those resting on an earlier query's pin
  /// are no longer indexed. When none is broken, the assignment satisfies
  /// every external incompatibility, hence every derived one: it is a
  /// solution (every package in it has had its dependencies and facts
  /// added), stored in Completed.
  bool completesFirstSolution() {
    auto Same = [&](PackageId Pkg) {
      const V *A = completion(Pkg);
      const std::optional<V> &F = FirstSolution[Pkg];
      return bool(A) == F.has_value() && (!A || (!(*A < *F) && !(*F < *A)));
    };
    auto Broken = [&](IncompId Id) {
      for (size_t K = 0; K < Meta[Id].packages().size(); ++K) {
        const V *A = completion(Meta[Id].packages()[K]);
        TermKey T = Meta[Id].keys()[K];
        bool Holds =
            A ? sets().get(T.Set).contains(*A) == T.Positive : !T.Positive;
        if (!Holds)
          return false;
      }
      return true;
    };
    // Only a package with an assignment in this search can differ from the
    // first solution; each is looked at once.
    Checked.resize(Names.size(), 0);
    ++CheckStamp;
    for (const auto &A : Solution.assignments()) {
      PackageId Pkg = A.Package;
      if (Checked[Pkg] == CheckStamp)
        continue;
      Checked[Pkg] = CheckStamp;
      if (Same(Pkg))
        continue;
      for (const ListEntry &E : ByPackage[Pkg])
        if (Broken(E.Id))
          return false;
    }
    for (IncompId Id : LateFacts)
      if (Broken(Id))
        return false;
    for (IncompId Id = QueryStart; Id < Store.size(); ++Id)
      if (Broken(Id))
        return false;
    Completed.clear();
    for (PackageId Pkg = 0; Pkg < Names.size(); ++Pkg)
      if (const V *A = completion(Pkg))
        Completed.emplace_back(Pkg, *A);
    return true;
  }

  /// In the completion of a query's partial solution: Pkg's decision, else
  /// its version in the first solution where the partial solution allows
  /// it, else none.
  const V *completion(PackageId Pkg) const {
    if (Solution.decided(Pkg))
      return &*Solution.state(Pkg).Decision;
    const std::optional<V> &F = FirstSolution[Pkg];
    if (!F)
      return nullptr;
    TermKey Known = Solution.knownKey(Pkg);
    if (Known.Set == NoSet ||
        Solution.knownSet(Pkg).contains(*F) == Known.Positive)
      return &*F;
    return nullptr;
  }

  /// Picks the next package and, if possible, a version of it; returns the
  /// package to propagate from, or nothing when every package is decided.
  std::optional<PackageId> choosePackageVersion() {
    // Among the open packages, in the order they became positive: each
    // whose facts were never asked has them asked (the first that has any
    // goes to propagation first); then the package with the fewest allowed
    // versions, so that a conflict, if there must be one, comes early (ties:
    // the one constrained first), and in a query the same among those that
    // must leave the first solution, which go first (Candidates.h).
    Open.update(Solution, FactsAsked);
    while (std::optional<PackageId> Unasked = Open.takeUnasked()) {
      FactsAsked[*Unasked] = true;
      std::vector<Fact<P, VS>> Facts = Provider.facts(Names[*Unasked]);
      if (!Facts.empty()) {
        for (Fact<P, VS> &F : Facts)
          addFact(std::move(F));
        return *Unasked;
      }
    }
    Open.rank(
        Solution, [&](PackageId Pkg) { return allowedCount(Pkg); },
        [&](PackageId Pkg) { return Querying && mustChange(Pkg); });
    std::optional<PackageId> Best = Open.best();
    if (!Best)
      return std::nullopt;
    std::optional<PackageId> BestChanging = Open.bestChanging();
    if (Querying && CompletionChecks > 0 && !BestChanging) {
      --CompletionChecks;
      if (completesFirstSolution())
        return std::nullopt;
    }
    if (Querying && Solution.decisionLevel() > QueryDecisions) {
      Exhausted = true;
      return std::nullopt;
    }
    if (BestChanging)
      Best = BestChanging;
    const PackageId Pkg = *Best;
    // Read before anything is assigned (the reference would not survive).
    const VS &Allowed = Solution.knownSet(Pkg);
    PackageInfo &I = info(Pkg);

    const V *Version = nullptr;
    size_t Index = 0;
    // A copy: interning a dependency may grow FirstSolution.
    std::optional<V> First;
    if (Querying && FirstSolution[Pkg] &&
        Allowed.contains(*FirstSolution[Pkg])) {
      First = FirstSolution[Pkg];
      Version = &*First;
      Index = ascendingIndex(I, *Version);
    }
    if (!Version) {
      // The first preferred version in a run of allowed ones (the runs
      // found by bisection, as allowedCount() finds them).
      auto Runs = Allowed.rangesIn(I.Ascending);
      for (size_t K = 0; K < I.AscendingIndex.size() && !Version; ++K) {
        size_t A = I.AscendingIndex[K];
        for (auto [From, To] : Runs)
          if (From <= A && A < To) {
            Version = I.Preferred.empty() ? &I.Ascending[A] : &I.Preferred[K];
            Index = A;
            break;
          }
      }
    }
    if (!Version) {
      IncompatibilityT None;
      None.Kind = CauseKind::NoVersions;
      None.Terms.emplace_back(Names[Pkg], TermT::positive(Allowed));
      addIncompatibility(std::move(None));
      return Pkg;
    }

    bool Conflict = false;
    for (IncompId Id : addIncompatibilitiesFor(Pkg, *Version, Index)) {
      // A dependency already contradicted by the solution would make this
      // version a conflict: keep its facts, let propagation choose again.
      bool AllSatisfied = true;
      for (size_t K = 0; K < Meta[Id].packages().size(); ++K)
        if (Meta[Id].packages()[K] != Pkg &&
            !Solution.satisfies(Meta[Id].packages()[K], Meta[Id].keys()[K]))
          AllSatisfied = false;
      Conflict = Conflict || AllSatisfied;
    }
    if (!Conflict) {
      ++Work.Decisions;
      Solution.decide(Pkg, *Version);
    }
    return Pkg;
  }

  /// How many decision levels a backjump may skip before the solver
  /// backtracks chronologically instead (resolveConflict()); small problems
  /// never reach it. Nadel and Ryvchin's default.
  unsigned ChronologicalDistance = 100;
  QueryLimits Limit;
  /// Conflicts before the first solve prunes dead versions (prune()), and
  /// whether it has; ThrashAfter: conflicts before it prunes a search that
  /// backjumps much (prunesNow()).
  unsigned PruneAfter = 64;
  static constexpr unsigned ThrashAfter = 8;
  bool Pruned = false;
  /// proofWithin()'s marks of the incompatibilities and proof steps it
  /// counted.
  std::vector<uint64_t> ProofMark, StepMark;
  uint64_t ProofStamp = 0;
  /// How many incompatibilities the proof proofWithin() last found within
  /// its bound rests on (0: none found since result() read it): the room
  /// result() makes for the failure's tree.
  size_t ProofCount = 0;
  Pruning Dead;
  /// The steps of the proofs materialize() wrote, by id | ProofBit: apart
  /// from the store, which a query renumbers when it forgets.
  std::vector<IncompatibilityT> Proofs;
  static constexpr IncompId ProofBit = IncompId(1) << 31;
  /// Queries' root level (enterRootLevel()): whether it is built, where it
  /// ends on the trail, and the store's size when it was last brought up
  /// to date.
  bool HaveRootLevel = false;
  size_t RootTrail = 0;
  IncompId RootStore = 0;
  /// Whether this solve has backtracked chronologically: from then on the
  /// derivations a backtrack removes are derived again where they follow,
  /// and each derivation keeps the level its premises hold from.
  bool Chronological = false;
  /// What the last backtrack removed, derived from (with Chronological).
  std::vector<IncompId> Dropped;

  DependencyProvider<P, V, VS> &Provider;
  P Root;
  V RootVersion;
  PackageId RootId = 0;
  bool RootListed = false;
  std::vector<IncompatibilityT> Store;
  /// Per incompatibility: the ids of its terms' packages and the partial
  /// solution's relation to each term, kept together and inline (most
  /// incompatibilities have two terms), so that propagation, which visits
  /// thousands of them per decision, reads one record per visit that looks
  /// at the terms (a visit that a list entry's blocking assignment ends
  /// reads none).
  std::vector<TermIndex> Meta;
  /// Per incompatibility: whether it rests on a query's pin.
  std::vector<bool> Tainted;
  /// Each name in Names to its id.
  NameIndex<P> Ids;
  std::vector<P> Names;
  /// Each dependee name depsAt() has read, its id there, and its package
  /// id once depId() asked (NoPackage before).
  NameIndex<P> DepNameIndex;
  std::vector<P> DepNames;
  std::vector<PackageId> PackageOfName;
  static constexpr PackageId NoPackage = ~PackageId(0);
  /// Per number the provider gave a name (numberedDependencies()): its id
  /// in DepNames (NoName until met). And the provider's last answer, its
  /// arrays reused.
  std::vector<uint32_t> NameOfNumber;
  static constexpr uint32_t NoName = ~uint32_t(0);
  NumberedDependencies<VS> Numbered;
  /// Per range number the provider gave (NumberedDependencies::ByNumber):
  /// its set in sets() (NoSet until met).
  std::vector<SetId> SetOfRange;
  /// internShared()'s sets by the array they share.
  llvm::DenseMap<const void *, std::pair<SetId, VS>> SharedSets;
  /// The reasons of the unavailable versions read (VersionDeps::Reason).
  std::vector<std::string> Reasons;
  std::deque<PackageInfo> Infos; // stable references while ids are added
  std::vector<AllowedCount> Counts;
  /// Per package: whether its facts were asked for.
  std::vector<bool> FactsAsked;
  /// Per package: the incompatibilities with a term about it, oldest first.
  std::vector<std::vector<ListEntry>> ByPackage;
  /// Per package: settled entries its scans have passed over since its
  /// list was last shortened (dropSettled()); whether any list was.
  std::vector<uint32_t> SettledSeen;
  bool Relist = false;
  std::vector<bool> Queued;
  PartialSolution<V, VS> Solution;
  /// Per package and term (resolveConflict()): its satisfier's place on
  /// the trail + 1, for the conflict being resolved.
  PairMap<uint32_t> Satisfiers;
  /// The open packages, ordered for the next decision.
  Candidates Open;
  std::optional<IncompId> FailureId;
  typename SolveResult<P, V, VS>::Counters Work;
  bool Querying = false;
  bool Exhausted = false;
  unsigned QueryDecisions = 0;
  /// During a query: the first incompatibility it added (its pin).
  IncompId QueryStart = 0;
  /// How many more times a query may try completesFirstSolution().
  unsigned CompletionChecks = 0;
  /// completesFirstSolution()'s marks of the packages it looked at.
  std::vector<uint64_t> Checked;
  uint64_t CheckStamp = 0;
  /// resolveConflict()'s marks of the packages a derived incompatibility
  /// has a term for, and that term's place.
  std::vector<uint64_t> MergeMark;
  std::vector<uint32_t> MergeSlot;
  uint64_t MergeStamp = 0;
  /// A query's solution found by completesFirstSolution().
  std::vector<std::pair<PackageId, V>> Completed;
  /// Whether solve() found a solution, and its version of each package.
  bool Solved = false;
  std::vector<std::optional<V>> FirstSolution;
  /// Facts added after solve() found its solution (asked first by a query).
  std::vector<IncompId> LateFacts;
};

/// Solves the dependencies of Root at RootVersion.
template <class P, class V, class VS>
SolveResult<P, V, VS> solve(DependencyProvider<P, V, VS> &Provider,
                            const P &Root, const V &RootVersion) {
  return Solver<P, V, VS>(Provider, Root, RootVersion).solve();
}

} // namespace cudadeps::solver

#endif
