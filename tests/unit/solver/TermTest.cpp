//===- TermTest.cpp - term algebra and incompatibility normalisation ------===//

#include "tests/unit/solver/SolverTestSupport.h"

#include "gtest/gtest.h"

using namespace cudadeps;
using namespace cudadeps::testing;
using solver::SetRelation;

static PackageTerm pos(llvm::StringRef C) {
  return PackageTerm::positive(constraint(C));
}
static PackageTerm neg(llvm::StringRef C) {
  return PackageTerm::negative(constraint(C));
}

TEST(SolverTerm, RelationFollowsPub) {
  EXPECT_EQ(pos("^1.5.0").relation(pos("^1.0.0")), SetRelation::Subset);
  EXPECT_EQ(pos("^2.0.0").relation(pos("^1.0.0")), SetRelation::Disjoint);
  EXPECT_EQ(pos(">=1.5.0 <3.0.0").relation(pos("^1.0.0")),
            SetRelation::Overlapping);
  EXPECT_EQ(neg("^1.0.0").relation(pos("^1.0.0")), SetRelation::Disjoint);
  // "not foo ^1.0.0" allows foo to be absent: never a subset of a positive.
  EXPECT_EQ(neg("^1.0.0").relation(pos("any")), SetRelation::Overlapping);
  EXPECT_EQ(pos("^2.0.0").relation(neg("^1.0.0")), SetRelation::Subset);
  EXPECT_EQ(pos("^1.5.0").relation(neg("^1.0.0")), SetRelation::Disjoint);
  EXPECT_EQ(neg("^1.0.0").relation(neg("^1.5.0")), SetRelation::Subset);
  EXPECT_EQ(neg("^1.5.0").relation(neg("^1.0.0")), SetRelation::Overlapping);
}

TEST(SolverTerm, IntersectionAndDifference) {
  EXPECT_EQ(pos("^1.0.0").intersect(neg(">=1.5.0")), pos(">=1.0.0 <1.5.0"));
  EXPECT_EQ(neg("^1.0.0").intersect(neg("^2.0.0")),
            PackageTerm::negative(constraint("^1.0.0").unionWith(
                constraint("^2.0.0"))));
  EXPECT_EQ(pos("^1.0.0").difference(pos(">=1.5.0")), pos(">=1.0.0 <1.5.0"));
  EXPECT_TRUE(pos("^1.0.0").intersect(pos("^2.0.0")).isEmpty());
  EXPECT_FALSE(neg("any").isEmpty());
}

TEST(SolverIncompatibility, MergesTermsAndDropsTheRootFromDerived) {
  using I = solver::Incompatibility<std::string, VersionSet>;
  std::vector<I::Entry> Terms = {{"foo", pos("^1.0.0")},
                                 {"root", pos("1.0.0")},
                                 {"foo", neg(">=1.5.0")}};
  I Derived = I::make(Terms, solver::CauseKind::Derived, "root");
  ASSERT_EQ(Derived.Terms.size(), 1u);
  EXPECT_EQ(Derived.Terms[0].second, pos(">=1.0.0 <1.5.0"));
  EXPECT_FALSE(Derived.isFailure("root"));
  I External = I::make(Terms, solver::CauseKind::Custom, "root");
  EXPECT_EQ(External.Terms.size(), 2u);
  EXPECT_TRUE(I::make({{"root", pos("1.0.0")}}, solver::CauseKind::Derived,
                      "root")
                  .isFailure("root"));
}

// A derivation built for a store that drops some incompatibilities
// afterwards takes their terms and texts (the store keeps their kinds and
// causes) and is the same tree as one built by copying.
TEST(SolverDerivationTree, TakesTheTermsOfWhatTheStoreDrops) {
  using I = solver::Incompatibility<std::string, VersionSet>;
  using Tree = solver::DerivationTree<std::string, VersionSet>;
  std::vector<I> Store(3);
  Store[0].Kind = solver::CauseKind::Dependency;
  Store[0].Terms = {{"root", pos("1.0.0")}, {"foo", neg("^1.0.0")}};
  Store[1].Kind = solver::CauseKind::Unavailable;
  Store[1].Terms = {{"foo", pos("^1.0.0")}};
  Store[1].Text = "no such release";
  Store[2].Kind = solver::CauseKind::Derived;
  Store[2].Terms = {{"root", pos("1.0.0")}};
  Store[2].Text = "derived";
  Store[2].Cause1 = 0;
  Store[2].Cause2 = 1;
  const std::vector<I> Original = Store;
  Tree Copied = Tree::build(Original, 2, "root");
  Tree Taken = Tree::build(Store, 2, "root",
                           [](solver::IncompId Id) { return Id != 0; });
  ASSERT_EQ(Taken.Nodes.size(), Copied.Nodes.size());
  for (size_t K = 0; K < Copied.Nodes.size(); ++K) {
    EXPECT_EQ(Taken.Nodes[K].Terms, Copied.Nodes[K].Terms) << K;
    EXPECT_EQ(Taken.Nodes[K].Text, Copied.Nodes[K].Text) << K;
    EXPECT_EQ(Taken.Nodes[K].Kind, Copied.Nodes[K].Kind) << K;
    EXPECT_EQ(Taken.Nodes[K].Cause1, Copied.Nodes[K].Cause1) << K;
    EXPECT_EQ(Taken.Nodes[K].Cause2, Copied.Nodes[K].Cause2) << K;
  }
  EXPECT_EQ(Taken.Top, Copied.Top);
  // What was not taken is as it was; what was taken keeps kind and causes.
  EXPECT_EQ(Store[0].Terms, Original[0].Terms);
  EXPECT_TRUE(Store[1].Terms.empty() && Store[2].Terms.empty());
  EXPECT_EQ(Store[2].Kind, solver::CauseKind::Derived);
  EXPECT_EQ(Store[2].Cause1, 0u);
  EXPECT_EQ(Store[2].Cause2, 1u);
}

TEST(SolverSetTable, AnswersAsTheTermsDo) {
  // Every relation and combination asked by id is the one the terms give,
  // equal sets share an id, and asking again (from the table's memory)
  // gives the same answer. Enough pairs to make the table's maps grow.
  std::vector<PackageTerm> Terms;
  for (llvm::StringRef C :
       {"any", "^1.0.0", "^2.0.0", ">=1.5.0", "<1.5.0", ">=1.0.0 <3.0.0",
        "1.2.0", "1.5.0", "2.0.0", ">=2.0.0.dev0", "<2.0.0", ">=1.2.0 <1.6.0",
        ">=3.0.0", "<1.0.0", ">=1.1.0 <1.3.0", ">=0.5.0 <1.1.0", "3.1.4"}) {
    Terms.push_back(pos(C));
    Terms.push_back(neg(C));
  }
  Terms.push_back(pos("^1.0.0").intersect(pos("^2.0.0"))); // empty
  solver::SetTable<VersionSet> Table;
  std::vector<solver::TermKey> Keys;
  for (const PackageTerm &T : Terms)
    Keys.push_back({Table.intern(T.set()), T.isPositive()});
  EXPECT_EQ(Table.intern(constraint("^1.0.0")), Keys[2].Set);
  EXPECT_EQ(Keys[2].Set, Keys[3].Set); // one set, either polarity
  for (int Round = 0; Round < 2; ++Round)
    for (size_t A = 0; A < Terms.size(); ++A)
      for (size_t B = 0; B < Terms.size(); ++B) {
        EXPECT_EQ(Table.relation(Keys[A], Keys[B]), Terms[A].relation(Terms[B]))
            << A << " " << B;
        EXPECT_EQ(Table.term(Table.intersect(Keys[A], Keys[B])),
                  Terms[A].intersect(Terms[B]))
            << A << " " << B;
        EXPECT_EQ(Table.term(Table.difference(Keys[A], Keys[B])),
                  Terms[A].difference(Terms[B]))
            << A << " " << B;
      }
}
