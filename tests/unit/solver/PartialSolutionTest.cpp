//===- PartialSolutionTest.cpp - the trail of assignments -----------------===//

#include "core/solver/PartialSolution.h"
#include "tests/unit/solver/SolverTestSupport.h"

#include "gtest/gtest.h"

#include <vector>

using namespace cudadeps;
using namespace cudadeps::testing;
using solver::PackageId;
using solver::TermKey;

namespace {

using Solution = solver::PartialSolution<Version, VersionSet>;

/// The runs ruled out of package 1, in the order derived (each a positive
/// term whose inverse is assigned), some covering others.
const char *const Runs[] = {">=2.0.0 <3.0.0", ">=5.0.0",
                            "<1.0.0",         ">=2.0.0 <3.0.0",
                            ">=3.0.0 <4.0.0", ">=1.0.0 <2.0.0"};

/// Package 0 decided, then package 1's runs derived: computed as they go
/// (deriveInverse()) or left pending (derivePending()) and the last one
/// given the accumulated term that Eager's last one has.
struct Pair {
  Solution Eager, Lazy;
  Pair() {
    for (Solution *S : {&Eager, &Lazy}) {
      S->ensure(2);
      S->decide(0, ver("1.0.0"));
    }
    for (const char *Run : Runs) {
      Eager.deriveInverse(1, {Eager.sets().intern(constraint(Run)), true}, 7);
      Lazy.derivePending(1, Lazy.sets().intern(constraint(Run)), 7);
    }
    Lazy.settle(1, {Lazy.sets().intern(Eager.knownSet(1)), false});
  }
  /// What the assignment at place I on the trail knows of its package.
  static std::string known(Solution &S, size_t I) {
    const auto &A = S.assignments()[I];
    return (A.Positive ? "" : "not ") + S.sets().get(A.Set).str();
  }
};

} // namespace

TEST(PartialSolutionPending, TheLastOneKnowsWhatTheRunsRuledOut) {
  Pair P;
  EXPECT_EQ(P.Lazy.trailSize(), P.Eager.trailSize());
  EXPECT_FALSE(P.Lazy.knownKey(1).Positive);
  EXPECT_EQ(P.Lazy.knownSet(1), P.Eager.knownSet(1));
  // The runs' union: everything below 4.0.0 and from 5.0.0 on.
  EXPECT_EQ(P.Lazy.knownSet(1),
            constraint("<4.0.0").unionWith(constraint(">=5.0.0")));
  // The ones before it are still to be computed.
  EXPECT_TRUE(P.Lazy.assignments()[1].Pending);
  EXPECT_FALSE(P.Lazy.assignments().back().Pending);
}

TEST(PartialSolutionPending, TheSatisfierIsTheOneTheEagerTrailHas) {
  // Terms each first satisfied at a different place of package 1's runs,
  // asked out of order: each search computes what it reads.
  const char *const Terms[] = {"<3.0.0",         ">=3.0.0 <4.0.0", "<1.0.0",
                               ">=2.0.0 <3.0.0", "<2.0.0",         ">=6.0.0",
                               ">=5.0.0 <6.0.0", ">=1.0.0 <3.0.0"};
  Pair P;
  for (const char *Text : Terms) {
    SCOPED_TRACE(Text);
    // "not (Text)": satisfied once every version it has is ruled out.
    TermKey Eager{P.Eager.sets().intern(constraint(Text)), false};
    TermKey Lazy{P.Lazy.sets().intern(constraint(Text)), false};
    EXPECT_EQ(P.Lazy.satisfier(1, Lazy).Index,
              P.Eager.satisfier(1, Eager).Index);
  }
  // Every assignment read is computed now, as the eager trail has it.
  for (size_t I = 0; I < P.Eager.trailSize(); ++I) {
    SCOPED_TRACE(I);
    if (P.Lazy.assignments()[I].Pending)
      continue;
    EXPECT_EQ(Pair::known(P.Lazy, I), Pair::known(P.Eager, I));
  }
}

TEST(PartialSolutionPending, ABacktrackAboveThemKeepsThem) {
  Pair P;
  for (Solution *S : {&P.Eager, &P.Lazy}) {
    S->ensure(3);
    S->decide(2, ver("1.0.0")); // level 2
    S->deriveInverse(1, {S->sets().intern(constraint(">=4.0.0 <5.0.0")), true},
                     8);
    EXPECT_EQ(S->knownSet(1), VersionSet::any());
    S->backtrack(1);
  }
  EXPECT_EQ(P.Lazy.trailSize(), 7u);
  EXPECT_EQ(P.Lazy.knownSet(1), P.Eager.knownSet(1));
  // The second run (">=5.0.0", second on the trail after the decision).
  TermKey Eager{P.Eager.sets().intern(constraint(">=5.0.0")), false};
  TermKey Lazy{P.Lazy.sets().intern(constraint(">=5.0.0")), false};
  EXPECT_EQ(P.Lazy.satisfier(1, Lazy).Index, 2u);
  EXPECT_EQ(P.Eager.satisfier(1, Eager).Index, 2u);
  EXPECT_EQ(Pair::known(P.Lazy, 2), Pair::known(P.Eager, 2));
}
