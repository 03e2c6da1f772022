//===- QueryTest.cpp - questions about variants of a solved problem -------===//
//
// Solver::query after solve(): "is there a solution in which this package's
// version is in this set?", answered with what the solve learned. A query
// fails with the reason, finds a solution (also by completing the first
// solution without deciding every package), or ends undecided at its
// decision bound or its work limits; queries do not affect one another, and
// what rests on a query's pin leaves the store with it.
//
//===----------------------------------------------------------------------===//

#include "tests/unit/solver/SolverTestSupport.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

#include <algorithm>
#include <climits>
#include <map>
#include <random>
#include <tuple>

using namespace cudadeps;
using namespace cudadeps::testing;
using ::testing::HasSubstr;
using Solution = std::map<std::string, std::string>;

namespace {

/// a 2 needs b <2, so the solve takes b 2 with a 1 (b is decided first); a 2
/// is possible with b 1. c and d are free; e 2 needs a package that does
/// not exist.
Registry registry() {
  Registry R;
  R.add("root", "1.0.0",
        {{"a", "any"}, {"b", "any"}, {"c", "any"}, {"d", "any"}, {"e", "any"}})
      .add("a", "2.0.0", {{"b", "<2.0.0"}})
      .add("a", "1.0.0")
      .add("b", "2.0.0")
      .add("b", "1.0.0")
      .add("c", "3.0.0")
      .add("c", "2.0.0")
      .add("d", "1.0.0")
      .add("e", "2.0.0", {{"missing", ">=1.0.0"}})
      .add("e", "1.0.0");
  return R;
}

TEST(SolverQuery, TheFirstSolveTakesTheOlderVersions) {
  Registry R = registry();
  PackageSolver S(R, "root", ver("1.0.0"));
  PackageSolveResult First = S.solve();
  ASSERT_TRUE(First.solved());
  EXPECT_EQ(solutionOf(First, "root"),
            (Solution{{"a", "1.0.0"},
                      {"b", "2.0.0"},
                      {"c", "3.0.0"},
                      {"d", "1.0.0"},
                      {"e", "1.0.0"}}));
}

TEST(SolverQuery, AnImpossibleVersionFailsWithItsReason) {
  Registry R = registry();
  PackageSolver S(R, "root", ver("1.0.0"));
  ASSERT_TRUE(S.solve().solved());
  PackageSolveResult Why = S.query("e", VersionSet::exactly(ver("2.0.0")), 12);
  ASSERT_TRUE(Why.Failure.has_value());
  EXPECT_FALSE(Why.Undecided);
  EXPECT_THAT(explainFailure(*Why.Failure, pubStyle()), HasSubstr("missing"));
}

/// That B (asked with FailureDetail::Externals) holds A's (the whole
/// proof's) external nodes alone, in the order A lists them.
void expectExternalsOf(const PackageDerivation &A, const PackageDerivation &B) {
  EXPECT_TRUE(B.ExternalsOnly);
  const std::vector<solver::IncompId> External = A.externals();
  ASSERT_EQ(External.size(), B.Nodes.size());
  EXPECT_LT(External.size(), A.Nodes.size()) << "the proof derives something";
  for (size_t K = 0; K < External.size(); ++K) {
    const auto &NA = A.Nodes[External[K]], &NB = B.Nodes[K];
    EXPECT_NE(NB.Kind, solver::CauseKind::Derived) << K;
    EXPECT_EQ(NA.Kind, NB.Kind) << K;
    EXPECT_EQ(NA.Terms, NB.Terms) << K;
    EXPECT_EQ(NA.Text, NB.Text) << K;
  }
  std::vector<solver::IncompId> All(B.Nodes.size());
  for (size_t K = 0; K < All.size(); ++K)
    All[K] = solver::IncompId(K);
  EXPECT_EQ(B.externals(), All);
}

/// Two solvers of one problem, the same question of each after its solve:
/// Package at exactly Version, Whole asking for the whole proof, Brief for
/// its external causes only (what resolve's reasons read).
std::pair<PackageSolveResult, PackageSolveResult>
askWholeAndExternals(PackageSolver &Whole, PackageSolver &Brief,
                     const std::string &Package, llvm::StringRef Version) {
  EXPECT_TRUE(Whole.solve().solved());
  EXPECT_TRUE(Brief.solve().solved());
  const VersionSet Set = VersionSet::exactly(ver(Version));
  return {
      Whole.query(Package, Set, 12),
      Brief.query(Package, Set, 12, true, solver::FailureDetail::Externals)};
}

TEST(SolverQuery, AFailureWithItsExternalCausesOnlyHasTheSameCauses) {
  Registry R = registry();
  PackageSolver Whole(R, "root", ver("1.0.0")), Brief(R, "root", ver("1.0.0"));
  auto [A, B] = askWholeAndExternals(Whole, Brief, "e", "2.0.0");
  ASSERT_TRUE(A.Failure && B.Failure);
  EXPECT_FALSE(A.Failure->ExternalsOnly);
  expectExternalsOf(*A.Failure, *B.Failure);
  // A second query on the same solver asks again, whole this time.
  PackageSolveResult C =
      Brief.query("e", VersionSet::exactly(ver("2.0.0")), 12);
  ASSERT_TRUE(C.Failure);
  EXPECT_EQ(explainFailure(*C.Failure, pubStyle()),
            explainFailure(*A.Failure, pubStyle()));
}

TEST(SolverQuery, APossibleVersionIsSolvedByCompletingTheFirstSolution) {
  Registry R = registry();
  PackageSolver S(R, "root", ver("1.0.0"));
  ASSERT_TRUE(S.solve().solved());
  // a 2 and b 1 are two decisions; root, c, d and e keep the first
  // solution's versions without being decided (a bound of 2 would stop a
  // search that decided each of them).
  PackageSolveResult Why = S.query("a", VersionSet::exactly(ver("2.0.0")), 2);
  ASSERT_TRUE(Why.solved()) << (Why.Failure ? explainFailure(*Why.Failure,
                                                              pubStyle())
                                            : "undecided");
  EXPECT_EQ(solutionOf(Why, "root"),
            (Solution{{"a", "2.0.0"},
                      {"b", "1.0.0"},
                      {"c", "3.0.0"},
                      {"d", "1.0.0"},
                      {"e", "1.0.0"}}));
}

TEST(SolverQuery, AQueryStopsAtItsDecisionBound) {
  Registry R = registry();
  PackageSolver S(R, "root", ver("1.0.0"));
  ASSERT_TRUE(S.solve().solved());
  // Deciding a 2 makes b move: a bound of no decision beyond the first
  // stops there.
  PackageSolveResult Why = S.query("a", VersionSet::exactly(ver("2.0.0")), 0);
  EXPECT_TRUE(Why.Undecided);
  EXPECT_FALSE(Why.solved());
  EXPECT_FALSE(Why.Failure.has_value());
}

TEST(SolverQuery, QueriesDoNotAffectOneAnother) {
  Registry R = registry();
  PackageSolver S(R, "root", ver("1.0.0"));
  ASSERT_TRUE(S.solve().solved());
  // The pin a ==2 excludes b 2; what was learned from it is forgotten.
  ASSERT_TRUE(S.query("a", VersionSet::exactly(ver("2.0.0")), 12).solved());
  PackageSolveResult B = S.query("b", VersionSet::exactly(ver("2.0.0")), 12);
  ASSERT_TRUE(B.solved());
  EXPECT_EQ(B.Solution->at("a").str(), "1.0.0");
  EXPECT_TRUE(S.query("e", VersionSet::exactly(ver("2.0.0")), 12).Failure);
  // Asked only whether: solved without the versions, failed with the reason.
  PackageSolveResult Whether =
      S.query("b", VersionSet::exactly(ver("2.0.0")), 12, false);
  ASSERT_TRUE(Whether.solved());
  EXPECT_TRUE(Whether.Solution->empty());
  EXPECT_TRUE(
      S.query("e", VersionSet::exactly(ver("2.0.0")), 12, false).Failure);
  // A set that the first solution is in is solved at once.
  EXPECT_TRUE(S.query("c", VersionSet::atLeast(ver("2.0.0")), 12).solved());
}

TEST(SolverQuery, WhatRestsOnAPinLeavesTheStore) {
  Registry R = registry();
  PackageSolver S(R, "root", ver("1.0.0"));
  ASSERT_TRUE(S.solve().solved());
  // The first query asks for e 2's dependencies (kept: every query may
  // use them); the pin and what was learned from it go. Asked again, the
  // store ends where it ended before, with the same reason.
  PackageSolveResult First =
      S.query("e", VersionSet::exactly(ver("2.0.0")), 12);
  ASSERT_TRUE(First.Failure);
  PackageSolveResult Second =
      S.query("e", VersionSet::exactly(ver("2.0.0")), 12);
  PackageSolveResult Third =
      S.query("e", VersionSet::exactly(ver("2.0.0")), 12);
  ASSERT_TRUE(Second.Failure && Third.Failure);
  EXPECT_LE(Second.IncompatibilityCount, First.IncompatibilityCount);
  EXPECT_EQ(Third.IncompatibilityCount, Second.IncompatibilityCount);
  EXPECT_EQ(explainFailure(*Third.Failure, pubStyle()),
            explainFailure(*First.Failure, pubStyle()));
  // Interleaved with others, a query still finds what it found alone.
  PackageSolveResult A = S.query("a", VersionSet::exactly(ver("2.0.0")), 12);
  ASSERT_TRUE(A.solved());
  ASSERT_TRUE(S.query("e", VersionSet::exactly(ver("2.0.0")), 12).Failure);
  PackageSolveResult Again =
      S.query("a", VersionSet::exactly(ver("2.0.0")), 12);
  ASSERT_TRUE(Again.solved());
  EXPECT_EQ(solutionOf(Again, "root"), solutionOf(A, "root"));
}

TEST(SolverQuery, QueriesStartFromTheRootLevelPropagatedOnce) {
  Registry R = registry();
  PackageSolver S(R, "root", ver("1.0.0"));
  ASSERT_TRUE(S.solve().solved());
  // The first query propagates the root's level (every requirement of the
  // root); the same question again starts where that level ended and
  // looks at the root's incompatibilities only for the pin.
  PackageSolveResult First =
      S.query("c", VersionSet::atLeast(ver("2.0.0")), 12);
  PackageSolveResult Again =
      S.query("c", VersionSet::atLeast(ver("2.0.0")), 12);
  ASSERT_TRUE(First.solved() && Again.solved());
  EXPECT_LT(Again.Work.Visits, First.Work.Visits);
  EXPECT_EQ(solutionOf(Again, "root"), solutionOf(First, "root"));
  // A query that moves packages, then one that fails, then the first
  // again: the same answers as asked alone.
  ASSERT_TRUE(S.query("a", VersionSet::exactly(ver("2.0.0")), 12).solved());
  ASSERT_TRUE(S.query("e", VersionSet::exactly(ver("2.0.0")), 12).Failure);
  PackageSolveResult Third =
      S.query("c", VersionSet::atLeast(ver("2.0.0")), 12);
  ASSERT_TRUE(Third.solved());
  EXPECT_EQ(solutionOf(Third, "root"), solutionOf(First, "root"));
}

/// Pigeons p1..pN each take a hole (version k of p_i needs hole k to hold
/// i); holes 1..N, each empty (0) or holding one pigeon. Solvable; with hole
/// 1 pinned empty, N pigeons need N - 1 holes: a proof of many conflicts.
Registry pigeonholes(unsigned N) {
  Registry R;
  std::vector<std::pair<std::string, std::string>> Root;
  for (unsigned I = 1; I <= N; ++I) {
    std::string P = "p" + std::to_string(I), H = "h" + std::to_string(I);
    Root.emplace_back(P, "any");
    Root.emplace_back(H, "any");
    R.add(H, "0.0.0");
    for (unsigned K = 1; K <= N; ++K) {
      R.add(P, std::to_string(K) + ".0.0",
            {{"h" + std::to_string(K), std::to_string(I) + ".0.0"}});
      R.add(H, std::to_string(K) + ".0.0");
    }
  }
  R.add("root", "1.0.0", Root);
  return R;
}

TEST(SolverQuery, AQueryStopsAtItsWorkLimits) {
  Registry R = pigeonholes(5);
  PackageSolver S(R, "root", ver("1.0.0"));
  ASSERT_TRUE(S.solve().solved());
  VersionSet Empty = VersionSet::exactly(ver("0.0.0"));
  S.setQueryLimits({2, 1000});
  PackageSolveResult Cut = S.query("h1", Empty, 1000);
  EXPECT_TRUE(Cut.Undecided);
  EXPECT_FALSE(Cut.Failure.has_value());
  EXPECT_EQ(Cut.Work.Conflicts, 2u);
  // Or after learning 3 incompatibilities, whatever the conflicts.
  S.setQueryLimits({100000, 3});
  PackageSolveResult Short = S.query("h1", Empty, 1000);
  EXPECT_TRUE(Short.Undecided);
  EXPECT_FALSE(Short.Failure.has_value());
  EXPECT_EQ(Short.Work.Learned, 3u);
  // With room, the same query proves it impossible, after more conflicts.
  S.setQueryLimits({100000, 1000000});
  PackageSolveResult Proof = S.query("h1", Empty, 1000);
  ASSERT_TRUE(Proof.Failure.has_value());
  EXPECT_GT(Proof.Work.Conflicts, 2u);
}

/// a 3 needs b >=2, whose versions all need a c that does not exist; d 2 is
/// unavailable: four dead versions, found without search once pruned.
Registry deadEnds(const std::string &RootNeedsA) {
  Registry R;
  R.add("root", "1.0.0", {{"a", RootNeedsA}, {"d", "any"}})
      .add("a", "3.0.0", {{"b", ">=2.0.0"}})
      .add("a", "2.0.0", {{"b", "any"}})
      .add("a", "1.0.0")
      .add("b", "3.0.0", {{"c", ">=2.0.0"}})
      .add("b", "2.0.0", {{"c", ">=3.0.0"}})
      .add("b", "1.0.0")
      .add("c", "1.0.0")
      .addUnavailable("d", "2.0.0", "broken")
      .add("d", "1.0.0");
  return R;
}

/// Solves R (root 1.0.0) pruning as soon as the root is decided, then asks
/// whether Package can be at Version: the solve's result and the query's.
std::pair<PackageSolveResult, PackageSolveResult>
solvePrunedThenAsk(Registry &R, const std::string &Package,
                   llvm::StringRef Version) {
  PackageSolver S(R, "root", ver("1.0.0"));
  S.setPruneAfter(0);
  PackageSolveResult First = S.solve();
  PackageSolveResult Why;
  if (First.solved())
    Why = S.query(Package, VersionSet::exactly(ver(Version)), 12);
  return {std::move(First), std::move(Why)};
}

/// R (root 1.0.0) solved by a search that never prunes (first) and by one
/// that prunes as soon as the root is decided (second).
std::pair<PackageSolveResult, PackageSolveResult> searchAndPrune(Registry &R) {
  PackageSolver Searching(R, "root", ver("1.0.0")),
      Pruning(R, "root", ver("1.0.0"));
  Searching.setPruneAfter(UINT_MAX);
  Pruning.setPruneAfter(0);
  return {Searching.solve(), Pruning.solve()};
}

TEST(SolverPrune, DeadVersionsAreRuledOutWithoutSearch) {
  Registry R = deadEnds("any");
  auto [A, B] = searchAndPrune(R);
  ASSERT_TRUE(A.solved() && B.solved());
  const Solution Expected{{"a", "2.0.0"}, {"b", "1.0.0"}, {"d", "1.0.0"}};
  EXPECT_EQ(solutionOf(A, "root"), Expected);
  EXPECT_EQ(solutionOf(B, "root"), Expected);
  EXPECT_EQ(A.Work.Pruned, 0u);
  EXPECT_GT(A.Work.Conflicts, 0u);
  EXPECT_EQ(B.Work.Pruned, 4u); // a 3, b 2, b 3, d 2
  EXPECT_EQ(B.Work.Conflicts, 0u);
}

TEST(SolverPrune, APrunedVersionFailsAQueryWithTheWholeChain) {
  Registry R = deadEnds("any");
  PackageSolver S(R, "root", ver("1.0.0"));
  S.setPruneAfter(0);
  ASSERT_TRUE(S.solve().solved());
  PackageSolveResult Why = S.query("a", VersionSet::exactly(ver("3.0.0")), 12);
  ASSERT_TRUE(Why.Failure.has_value());
  // The pin against what the root's level rules out: no search.
  EXPECT_EQ(Why.Work.Decisions, 0u);
  EXPECT_EQ(Why.Work.Conflicts, 1u);
  std::string Text = explainFailure(*Why.Failure, pubStyle());
  EXPECT_THAT(Text, HasSubstr("depends on b >=2.0.0"));
  EXPECT_THAT(Text, HasSubstr("depends on c >=3.0.0"));
  EXPECT_THAT(Text, HasSubstr("depends on c >=2.0.0"));
  EXPECT_THAT(Text, HasSubstr("which doesn't match any versions"));
  EXPECT_THAT(Text, ::testing::EndsWith("version solving failed."));
  // The same question within a proof of at most 3 incompatibilities: none.
  S.setQueryLimits({64, 1000, 3});
  PackageSolveResult Cut = S.query("a", VersionSet::exactly(ver("3.0.0")), 12);
  EXPECT_TRUE(Cut.Undecided);
  EXPECT_FALSE(Cut.Failure.has_value());
  // An unavailable version says why.
  S.setQueryLimits({64, 1000, 4000});
  PackageSolveResult D = S.query("d", VersionSet::exactly(ver("2.0.0")), 12);
  ASSERT_TRUE(D.Failure.has_value());
  EXPECT_THAT(explainFailure(*D.Failure, pubStyle()), HasSubstr("broken"));
}

/// Two fresh solvers of deadEnds("any") that prune as soon as the root is
/// decided (neither has written a dead version's proof), and their answers
/// about a 3.0.0: Whole's whole proof (A), Brief's external causes (B).
struct PrunedPair {
  Registry R = deadEnds("any");
  PackageSolver Whole{R, "root", ver("1.0.0")}, Brief{R, "root", ver("1.0.0")};
  PackageSolveResult A, B;
  PrunedPair() {
    Whole.setPruneAfter(0);
    Brief.setPruneAfter(0);
    std::tie(A, B) = askWholeAndExternals(Whole, Brief, "a", "3.0.0");
  }
};

TEST(SolverPrune, APrunedVersionsExternalCausesAreItsWholeProofs) {
  // The external causes alone walk the dead versions' proofs.
  PrunedPair T;
  ASSERT_TRUE(T.A.Failure && T.B.Failure);
  expectExternalsOf(*T.A.Failure, *T.B.Failure);
  // c >=2.0.0 and c >=3.0.0 match no version: both proofs end there.
  size_t NoVersions = 0;
  for (const auto &N : T.B.Failure->Nodes)
    NoVersions += N.Kind == solver::CauseKind::NoVersions;
  EXPECT_EQ(NoVersions, 2u);
}

TEST(SolverPrune, AProofWalkedForItsExternalsIsWrittenWholeTheSameAfter) {
  // A walk of external causes writes a dead version's proof's leaves
  // alone; a whole proof asked after it on the same solver writes the steps
  // between them and reads as a fresh solver's, and the external causes
  // asked again, now through the steps, are the same as the first time.
  PrunedPair T;
  const PackageSolveResult &Expected = T.A, &First = T.B;
  PackageSolver &S = T.Brief;
  ASSERT_TRUE(Expected.Failure && First.Failure);
  const VersionSet A3 = VersionSet::exactly(ver("3.0.0"));
  PackageSolveResult Whole = S.query("a", A3, 12);
  ASSERT_TRUE(Whole.Failure.has_value());
  EXPECT_FALSE(Whole.Failure->ExternalsOnly);
  EXPECT_EQ(explainFailure(*Whole.Failure, pubStyle()),
            explainFailure(*Expected.Failure, pubStyle()));
  expectExternalsOf(*Whole.Failure, *First.Failure);
  PackageSolveResult Again =
      S.query("a", A3, 12, true, solver::FailureDetail::Externals);
  ASSERT_TRUE(Again.Failure.has_value());
  expectExternalsOf(*Whole.Failure, *Again.Failure);
}

TEST(SolverPrune, ARequirementOnDeadVersionsOnlyFailsWithItsProof) {
  Registry R = deadEnds(">=3.0.0");
  PackageSolver S(R, "root", ver("1.0.0"));
  S.setPruneAfter(0);
  PackageSolveResult Result = S.solve();
  ASSERT_FALSE(Result.solved());
  EXPECT_EQ(Result.Work.Pruned, 4u);
  std::string Text = explainFailure(*Result.Failure, pubStyle());
  EXPECT_THAT(Text, HasSubstr("root depends on a >=3.0.0"));
  EXPECT_THAT(Text, HasSubstr("c >=2.0.0 which doesn't match any versions"));
  EXPECT_THAT(Text, ::testing::EndsWith("version solving failed."));
}

TEST(SolverPrune, AProofReadsAndCountsTheSameWrittenOrNot) {
  // A dead version's proof is written when a failure first reads it: the
  // smallest proof bound within which "a 3" fails, and the proof itself,
  // are the same on a solver where an earlier query wrote it.
  Registry R = deadEnds("any");
  const VersionSet A3 = VersionSet::exactly(ver("3.0.0"));
  auto Smallest = [&](bool WrittenFirst, std::string &Text) {
    for (unsigned Bound = 1; Bound < 100; ++Bound) {
      PackageSolver S(R, "root", ver("1.0.0"));
      S.setPruneAfter(0);
      EXPECT_TRUE(S.solve().solved());
      if (WrittenFirst) {
        EXPECT_TRUE(S.query("a", A3, 12).Failure.has_value());
      }
      S.setQueryLimits({64, 1000, Bound});
      PackageSolveResult Q = S.query("a", A3, 12);
      if (Q.Failure) {
        Text = explainFailure(*Q.Failure, pubStyle());
        return Bound;
      }
      EXPECT_TRUE(Q.Undecided) << Bound;
    }
    return 0u;
  };
  std::string Lazy, Written;
  unsigned AtFirst = Smallest(false, Lazy), Again = Smallest(true, Written);
  EXPECT_GT(AtFirst, 5u) << "the pin, a 3's proof, b 2's and b 3's";
  EXPECT_EQ(AtFirst, Again);
  EXPECT_EQ(Lazy, Written);
}

TEST(SolverPrune, AdjacentVersionsDeadByOneDependencyShareItsProof) {
  // x 1, 2 and 3 need a y that does not exist, as incompatibilitiesFor()
  // widens such a dependency: one incompatibility rules all three out.
  Registry R;
  R.add("root", "1.0.0", {{"x", "any"}})
      .add("x", "4.0.0")
      .add("x", "3.0.0", {{"y", ">=2.0.0"}})
      .add("x", "2.0.0", {{"y", ">=2.0.0"}})
      .add("x", "1.0.0", {{"y", ">=2.0.0"}})
      .add("y", "1.0.0");
  auto [First, Why] = solvePrunedThenAsk(R, "x", "2.0.0");
  ASSERT_TRUE(First.solved());
  EXPECT_EQ(First.Work.Pruned, 3u);
  ASSERT_TRUE(Why.Failure.has_value());
  EXPECT_EQ(explainFailure(*Why.Failure, pubStyle()),
            "Because x <4.0.0 depends on y >=2.0.0 which doesn't match any "
            "versions, x <4.0.0 is forbidden.\n"
            "So, because root depends on x 2.0.0, version solving failed.");
}

TEST(SolverPrune, ADeadVersionIsBlamedOnItsShortestProof) {
  // z 2 needs an a >=1 (a 1 needs a b that does not exist) and an m that
  // does not exist: either proves it dead; the shorter (m) is its reason,
  // though a 1 is found dead first in the order the dependencies were read.
  Registry R;
  R.add("root", "1.0.0", {{"a", "any"}, {"z", "any"}})
      .add("a", "1.0.0", {{"b", ">=2.0.0"}})
      .add("a", "0.5.0")
      .add("b", "1.0.0")
      .add("z", "2.0.0", {{"a", ">=1.0.0"}, {"m", ">=1.0.0"}})
      .add("z", "1.0.0");
  auto [First, Why] = solvePrunedThenAsk(R, "z", "2.0.0");
  ASSERT_TRUE(First.solved());
  ASSERT_TRUE(Why.Failure.has_value());
  std::string Text = explainFailure(*Why.Failure, pubStyle());
  EXPECT_THAT(Text, HasSubstr("depends on m >=1.0.0"));
  EXPECT_THAT(Text, ::testing::Not(HasSubstr("b >=2.0.0"))) << Text;
}

/// Packages a0 to a(Packages - 1), each with versions 1 to 10, and for
/// each a a z with 1.0.0 alone: every version of an a above 1 needs its z
/// at a range no release matches, each version by a range of its own (so
/// that no two share an incompatibility). A search tries the newest of each
/// a first and finds its nine dead ends one conflict at a time, each learned
/// alone and so undoing every decision since the root's. With Settled,
/// packages s0 to s(Settled - 1) of one version each, which the search
/// decides first and its conflicts mostly leave decided (a backjump over
/// more levels than the solver's chronological distance goes back one).
Registry deadNewest(unsigned Packages, unsigned Settled = 0) {
  Registry R;
  std::vector<std::pair<std::string, std::string>> RootDeps;
  for (unsigned I = 0; I < Settled; ++I) {
    std::string S = "s" + std::to_string(I);
    RootDeps.push_back({S, "any"});
    R.add(S, "1.0.0");
  }
  for (unsigned I = 0; I < Packages; ++I) {
    std::string A = "a" + std::to_string(I), Z = "z" + std::to_string(I);
    RootDeps.push_back({A, "any"});
    R.add(A, "1.0.0");
    for (unsigned V = 2; V <= 10; ++V)
      R.add(A, std::to_string(V) + ".0.0",
            {{Z, ">=" + std::to_string(100 * V) + ".0.0"}});
    R.add(Z, "1.0.0");
  }
  R.add("root", "1.0.0", RootDeps);
  return R;
}

/// What a solve of deadNewest() takes: every a at 1.0.0 and the rest at
/// their one version.
std::map<std::string, std::string> deadNewestSolution(unsigned Packages,
                                                      unsigned Settled = 0) {
  std::map<std::string, std::string> Out;
  for (unsigned I = 0; I < Settled; ++I)
    Out["s" + std::to_string(I)] = "1.0.0";
  for (unsigned I = 0; I < Packages; ++I)
    Out["a" + std::to_string(I)] = "1.0.0";
  return Out;
}

TEST(SolverPrune, ASearchThatUndoesMuchPrunesAfterFewConflicts) {
  Registry R = deadNewest(10);
  PackageSolver Searching(R, "root", ver("1.0.0")),
      Default(R, "root", ver("1.0.0")), Sooner(R, "root", ver("1.0.0"));
  Searching.setPruneAfter(UINT_MAX);
  Sooner.setPruneAfter(2);
  PackageSolveResult A = Searching.solve(), B = Default.solve(),
                     C = Sooner.solve();
  ASSERT_TRUE(A.solved() && B.solved() && C.solved());
  EXPECT_EQ(solutionOf(A, "root"), deadNewestSolution(10));
  EXPECT_EQ(solutionOf(B, "root"), deadNewestSolution(10));
  EXPECT_EQ(solutionOf(C, "root"), deadNewestSolution(10));
  // Never pruning: a conflict per dead version, past the 64 after which
  // a search prunes whatever it undoes.
  EXPECT_EQ(A.Work.Pruned, 0u);
  EXPECT_EQ(A.Work.Conflicts, 90u);
  // By default: after 8, each of which undid every decision.
  EXPECT_EQ(B.Work.Pruned, 90u);
  EXPECT_EQ(B.Work.Conflicts, 8u);
  // A bound below 8 still comes first.
  EXPECT_EQ(C.Work.Pruned, 90u);
  EXPECT_EQ(C.Work.Conflicts, 2u);
}

TEST(SolverPrune, ASearchThatKeepsMostOfItsDecisionsPrunesLater) {
  Registry R = deadNewest(10, 200);
  PackageSolver S(R, "root", ver("1.0.0"));
  PackageSolveResult A = S.solve();
  ASSERT_TRUE(A.solved());
  EXPECT_EQ(solutionOf(A, "root"), deadNewestSolution(10, 200));
  EXPECT_EQ(A.Work.Pruned, 90u);
  // Its conflicts undo few of its 200 and more decisions each: it prunes
  // once they have undone a fifth of them, well after 8.
  EXPECT_GT(A.Work.Conflicts, 8u);
  EXPECT_LT(A.Work.Conflicts, 64u);
}

TEST(SolverPrune, ADependencyOnAnEmptyRangeIsADeadEnd) {
  // x 2 needs a y no version can match (an empty range): dead, as a search
  // finds it ("no versions of y match").
  Registry R;
  R.add("root", "1.0.0", {{"x", "any"}})
      .add("x", "2.0.0", {{"y", ">=3.0.0 <2.0.0"}})
      .add("x", "1.0.0")
      .add("y", "1.0.0");
  auto [First, Why] = solvePrunedThenAsk(R, "x", "2.0.0");
  ASSERT_TRUE(First.solved());
  EXPECT_EQ(First.Work.Pruned, 1u);
  EXPECT_EQ(First.Work.Conflicts, 0u);
  ASSERT_TRUE(Why.Failure.has_value());
  EXPECT_THAT(explainFailure(*Why.Failure, pubStyle()),
              HasSubstr("x >=2.0.0 is forbidden"));
}

} // namespace

/// Each cause a query handed its visitor (query()'s OnCauses), written out:
/// kind, text and terms; and the same of a tree's external nodes.
using CauseText =
    std::tuple<solver::CauseKind, std::string,
               std::vector<std::tuple<std::string, std::string, bool>>>;
std::vector<CauseText> textsOf(llvm::ArrayRef<PackageCause> Causes) {
  std::vector<CauseText> Out;
  for (const PackageCause &C : Causes) {
    auto &[Kind, Text, Terms] = Out.emplace_back();
    Kind = C.Kind;
    Text = *C.Text;
    for (const auto &T : C.Terms)
      Terms.emplace_back(*T.Package, T.Set->str(), T.Positive);
  }
  return Out;
}

/// Asks S about Package at Version with a visitor: the causes it was
/// handed, after checking that the result holds no tree and says so.
std::vector<CauseText> visitedCauses(PackageSolver &S,
                                     const std::string &Package,
                                     llvm::StringRef Version) {
  std::vector<CauseText> Seen;
  unsigned Calls = 0;
  PackageSolveResult R = S.query(Package, VersionSet::exactly(ver(Version)), 12,
                                 true, solver::FailureDetail::Externals,
                                 [&](llvm::ArrayRef<PackageCause> Causes) {
                                   ++Calls;
                                   Seen = textsOf(Causes);
                                 });
  EXPECT_EQ(Calls, 1u);
  EXPECT_TRUE(R.CausesVisited);
  EXPECT_FALSE(R.Failure.has_value());
  EXPECT_FALSE(R.solved());
  return Seen;
}

TEST(SolverQuery, CausesVisitedInPlaceAreTheExternalCausesOfTheTree) {
  // A failure asked of a solver that keeps dependencies by ids alone, and
  // one resting on dead versions' proofs (never written, then written):
  // what a visitor is handed, in place, is the external nodes of the
  // tree, in order.
  {
    Registry R = registry();
    PackageSolver Whole(R, "root", ver("1.0.0")),
        Brief(R, "root", ver("1.0.0"));
    ASSERT_TRUE(Whole.solve().solved() && Brief.solve().solved());
    PackageSolveResult A =
        Whole.query("e", VersionSet::exactly(ver("2.0.0")), 12);
    ASSERT_TRUE(A.Failure.has_value());
    std::vector<CauseText> Want = textsOf(causesOf(*A.Failure));
    EXPECT_FALSE(Want.empty());
    EXPECT_EQ(visitedCauses(Brief, "e", "2.0.0"), Want);
    // A solved query hands nothing.
    bool Called = false;
    PackageSolveResult Fine =
        Brief.query("a", VersionSet::exactly(ver("2.0.0")), 12, true,
                    solver::FailureDetail::Externals,
                    [&](llvm::ArrayRef<PackageCause>) { Called = true; });
    EXPECT_TRUE(Fine.solved());
    EXPECT_FALSE(Called);
    EXPECT_FALSE(Fine.CausesVisited);
  }
  PrunedPair T;
  ASSERT_TRUE(T.A.Failure.has_value());
  std::vector<CauseText> Want = textsOf(causesOf(*T.A.Failure));
  ASSERT_GT(Want.size(), 2u);
  EXPECT_EQ(visitedCauses(T.Brief, "a", "3.0.0"), Want);
  // Again on the same solver, its dead versions' proofs written by then.
  EXPECT_EQ(visitedCauses(T.Brief, "a", "3.0.0"), Want);
  EXPECT_EQ(visitedCauses(T.Whole, "a", "3.0.0"), Want);
}

/// Deps sorted by target, the first of each target kept.
std::vector<std::pair<std::string, std::string>>
onePerTarget(std::vector<std::pair<std::string, std::string>> Deps) {
  std::stable_sort(Deps.begin(), Deps.end(), [](const auto &A, const auto &B) {
    return A.first < B.first;
  });
  Deps.erase(std::unique(Deps.begin(), Deps.end(),
                         [](const auto &A, const auto &B) {
                           return A.first == B.first;
                         }),
             Deps.end());
  return Deps;
}

/// A registry as bench/problems.py's "unique" one: N packages of V
/// versions, one planted version each whose dependencies allow the planted
/// versions of their targets, every other version a trap (a dependency on
/// a package of a lower number that excludes its planted version; p0's are
/// dead ends), and the root requiring Roots packages' planted versions: the
/// planted versions are the only solution, and pruning finds the traps dead
/// through chains of proofs of many sizes.
Registry trapRegistry(unsigned N, unsigned V, unsigned Roots,
                      std::map<std::string, std::string> &Planted) {
  std::mt19937 Rng(20261208);
  auto Pick = [&](unsigned Lo, unsigned Hi) { // in [Lo, Hi]
    return std::uniform_int_distribution<unsigned>(Lo, Hi)(Rng);
  };
  auto Name = [](unsigned I) { return "p" + std::to_string(I); };
  auto Ver = [](unsigned K) { return std::to_string(K) + ".0.0"; };
  auto Range = [&](unsigned Lo, unsigned Hi) { // [Lo, Hi) of 1..V
    return ">=" + Ver(Lo) + " <" + Ver(Hi);
  };
  std::vector<unsigned> Plant(N);
  for (unsigned &P : Plant)
    P = Pick(1, V);
  Registry R;
  for (unsigned I = 0; I < N; ++I) {
    Planted[Name(I)] = Ver(Plant[I]);
    for (unsigned K = 1; K <= V; ++K) {
      std::vector<std::pair<std::string, std::string>> Deps;
      if (K == Plant[I]) {
        for (unsigned D = Pick(0, 3); D > 0 && N > 1; --D) {
          unsigned T = Pick(0, N - 1);
          if (T == I)
            continue;
          Deps.emplace_back(
              Name(T), Range(Pick(1, Plant[T]), Pick(Plant[T] + 1, V + 1)));
        }
      } else if (I == 0) {
        Deps.emplace_back(Name(1), Range(V + 1, V + 2)); // no version
      } else {
        unsigned T = Pick(0, I - 1);
        if (Plant[T] > 1)
          Deps.emplace_back(Name(T), Range(Pick(1, Plant[T] - 1), Plant[T]));
        else
          Deps.emplace_back(Name(T), Range(2, V + 1));
      }
      R.add(Name(I), Ver(K), onePerTarget(std::move(Deps)));
    }
  }
  std::vector<std::pair<std::string, std::string>> RootDeps;
  for (unsigned K = 0; K < Roots; ++K) {
    unsigned T = Pick(0, N - 1);
    RootDeps.emplace_back(Name(T),
                          Range(Pick(1, Plant[T]), Pick(Plant[T] + 1, V + 1)));
  }
  R.add("root", "1.0.0", onePerTarget(std::move(RootDeps)));
  return R;
}

TEST(SolverPrune, ATrapRegistryPrunesToItsOnlySolution) {
  // Hundreds of dead versions found in the order of their proofs' sizes
  // (the builds with assertions on check the order's contract on the way:
  // RadixQueue), the same solution as the search that never prunes, and
  // the planted versions of every package it needs.
  std::map<std::string, std::string> Planted;
  Registry R = trapRegistry(60, 12, 15, Planted);
  auto [A, B] = searchAndPrune(R);
  ASSERT_TRUE(A.solved() && B.solved());
  EXPECT_GT(B.Work.Pruned, 300u);
  Solution S = solutionOf(B, "root");
  EXPECT_EQ(S, solutionOf(A, "root"));
  ASSERT_FALSE(S.empty());
  for (const auto &[Package, Version] : S)
    EXPECT_EQ(Version, Planted.at(Package)) << Package;
}
