//===- CandidatesTest.cpp - the open packages ordered for a decision ------===//

#include "core/solver/Candidates.h"
#include "tests/unit/solver/SolverTestSupport.h"

#include "gtest/gtest.h"

#include <map>

using namespace cudadeps;
using namespace cudadeps::testing;
using solver::Candidates;
using solver::PackageId;

namespace {

/// A partial solution over packages 0..4 whose allowed counts the test sets.
struct Fixture {
  solver::PartialSolution<Version, VersionSet> S;
  Candidates C;
  std::vector<bool> FactsAsked = std::vector<bool>(5, true);
  std::map<PackageId, size_t> Count;
  std::set<PackageId> MustChange;

  Fixture() { S.ensure(5); }
  void positive(PackageId P) {
    S.deriveInverse(P, {S.sets().intern(constraint("any")), false}, 0);
  }
  std::optional<PackageId> best() {
    C.update(S, FactsAsked);
    C.rank(
        S, [&](PackageId P) { return Count.at(P); },
        [&](PackageId P) { return MustChange.count(P) > 0; });
    return C.best();
  }
};

} // namespace

TEST(Candidates, FewestAllowedVersionsFirstTiesToTheEarliestPositive) {
  Fixture F;
  EXPECT_EQ(F.best(), std::nullopt);
  F.Count = {{0, 5}, {1, 3}, {2, 3}, {3, 9}, {4, 1}};
  F.positive(3);
  F.positive(2);
  F.positive(1);
  EXPECT_EQ(F.best(), PackageId(2)); // 2 and 1 allow 3; 2 came first
  // A package whose assignments did not change keeps its count: only a
  // changed one is counted again.
  F.Count[2] = 7;
  EXPECT_EQ(F.best(), PackageId(2));
  F.positive(2);
  EXPECT_EQ(F.best(), PackageId(1));
  // Decided packages leave; a new one with the fewest goes first.
  F.S.decide(1, Version({1}));
  EXPECT_EQ(F.best(), PackageId(2));
  F.positive(4);
  EXPECT_EQ(F.best(), PackageId(4));
  F.S.decide(4, Version({1}));
  F.S.decide(2, Version({1}));
  F.S.decide(3, Version({1}));
  EXPECT_EQ(F.best(), std::nullopt);
}

TEST(Candidates, BacktrackedPackagesReenterAfterTheOthers) {
  Fixture F;
  F.Count = {{0, 2}, {1, 2}, {2, 2}, {3, 2}, {4, 2}};
  F.positive(0);
  F.S.decide(0, Version({1})); // level 1
  F.positive(1);
  F.positive(2);
  EXPECT_EQ(F.best(), PackageId(1));
  F.S.decide(3, Version({1})); // level 2
  F.positive(1);               // keeps its place: it was positive already
  EXPECT_EQ(F.best(), PackageId(1));
  F.S.backtrack(1);
  // 1 lost an assignment: it keeps its level-1 one and re-enters the order
  // after 2, which backtracking did not touch.
  EXPECT_EQ(F.best(), PackageId(2));
  F.Count[1] = 1;
  F.positive(1);
  EXPECT_EQ(F.best(), PackageId(1));
}

TEST(Candidates, FactsAreAskedInOrderAndQueriesPreferPackagesThatMustMove) {
  Fixture F;
  F.Count = {{0, 1}, {1, 4}, {2, 4}, {3, 1}, {4, 1}};
  F.FactsAsked[2] = F.FactsAsked[1] = false;
  F.positive(2);
  F.positive(1);
  F.positive(0);
  F.C.update(F.S, F.FactsAsked);
  EXPECT_EQ(F.C.takeUnasked(), PackageId(2));
  F.FactsAsked[2] = true;
  EXPECT_EQ(F.C.takeUnasked(), PackageId(1));
  F.FactsAsked[1] = true;
  EXPECT_EQ(F.C.takeUnasked(), std::nullopt);
  F.MustChange = {1, 2};
  EXPECT_EQ(F.best(), PackageId(0));
  EXPECT_EQ(F.C.bestChanging(), PackageId(2));
  F.C.clear();
  F.S.restart();
  EXPECT_EQ(F.best(), std::nullopt);
  EXPECT_EQ(F.C.bestChanging(), std::nullopt);
}
