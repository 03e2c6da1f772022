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

// A derivation is built by asking its owner for each incompatibility it
// reaches, once each (a cause shared by two derivations is one node), and
// never for one it does not reach; it is the same tree as one copied from
// a store.
TEST(SolverDerivationTree, MakesEachReachableNodeOnce) {
  using I = solver::Incompatibility<std::string, VersionSet>;
  using Tree = solver::DerivationTree<std::string, VersionSet>;
  std::vector<I> Store(5);
  Store[0].Kind = solver::CauseKind::Custom; // reached by nothing
  Store[0].Text = "unused";
  Store[1].Kind = solver::CauseKind::Dependency;
  Store[1].Terms = {{"root", pos("1.0.0")}, {"foo", neg("^1.0.0")}};
  Store[2].Kind = solver::CauseKind::Unavailable;
  Store[2].Terms = {{"foo", pos("^1.0.0")}};
  Store[2].Text = "no such release";
  Store[3].Kind = solver::CauseKind::Derived;
  Store[3].Terms = {{"root", pos("1.0.0")}};
  Store[3].Cause1 = 1;
  Store[3].Cause2 = 2;
  Store[4].Kind = solver::CauseKind::Derived;
  Store[4].Cause1 = 3;
  Store[4].Cause2 = 2; // shared with 3
  std::map<solver::IncompId, int> Made;
  Tree Built = Tree::build(4, "root", [&](solver::IncompId Id) {
    ++Made[Id];
    return Store[Id];
  });
  EXPECT_EQ(Made,
            (std::map<solver::IncompId, int>{{1, 1}, {2, 1}, {3, 1}, {4, 1}}));
  Tree Copied = Tree::build(Store, 4, "root");
  ASSERT_EQ(Built.Nodes.size(), 4u);
  ASSERT_EQ(Copied.Nodes.size(), 4u);
  for (size_t K = 0; K < Built.Nodes.size(); ++K) {
    EXPECT_EQ(Built.Nodes[K].Terms, Copied.Nodes[K].Terms) << K;
    EXPECT_EQ(Built.Nodes[K].Text, Copied.Nodes[K].Text) << K;
    EXPECT_EQ(Built.Nodes[K].Kind, Copied.Nodes[K].Kind) << K;
    EXPECT_EQ(Built.Nodes[K].Cause1, Copied.Nodes[K].Cause1) << K;
    EXPECT_EQ(Built.Nodes[K].Cause2, Copied.Nodes[K].Cause2) << K;
  }
  // Causes are positions in the tree: the top's second cause is the node
  // its first cause's second cause is.
  const auto &Top = Built.top();
  EXPECT_EQ(Top.Cause2, Built[Top.Cause1].Cause2);
  EXPECT_EQ(Built[Top.Cause2].Text, "no such release");
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

TEST(SolverPairMap, ForgetsEveryKeyWhenClearedAndStaysUsable) {
  // Grown past the size at which clear() frees the slots, then small again:
  // both ways of clearing forget every key.
  solver::PairMap<uint32_t> M;
  for (uint64_t Round = 0; Round < 2; ++Round) {
    uint64_t N = Round == 0 ? 100000 : 100;
    for (uint64_t K = 0; K < N; ++K)
      M[K << 31 | Round] = uint32_t(K + 1);
    for (uint64_t K = 0; K < N; ++K)
      ASSERT_EQ(M[K << 31 | Round], uint32_t(K + 1)) << K;
    M.clear();
    for (uint64_t K = 0; K < N; ++K)
      ASSERT_EQ(M[K << 31 | Round], 0u) << "a key left after clear(): " << K;
    M.clear();
  }
  M[7] = 3;
  EXPECT_EQ(M[7], 3u);
  EXPECT_EQ(M[8], 0u);
}
