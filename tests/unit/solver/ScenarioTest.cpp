//===- ScenarioTest.cpp - PubGrub's solvable canonical examples -----------===//
//
// The solvable graphs of dart-lang/pub doc/solver.md (C.1-C.4 of
// shared/reference/prior-art.md) and of pub's and pubgrub-rs's test suites
// (C.7), with the exact solutions those implementations produce.
//
//===----------------------------------------------------------------------===//

#include "tests/unit/solver/SolverTestSupport.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

#include <climits>
#include <string>

using namespace cudadeps;
using namespace cudadeps::testing;
using Solution = std::map<std::string, std::string>;

static Solution solveOk(Registry &R, const std::string &Root = "root",
                        llvm::StringRef RootVersion = "1.0.0") {
  PackageSolveResult Result = solvePackages(R, Root, ver(RootVersion));
  EXPECT_TRUE(Result.solved())
      << explainFailure(*Result.Failure, pubStyle());
  return solutionOf(Result, Root);
}

TEST(SolverScenario, NoConflicts) {
  Registry R;
  R.add("root", "1.0.0", {{"foo", "^1.0.0"}})
      .add("foo", "1.0.0", {{"bar", "^1.0.0"}})
      .add("bar", "1.0.0")
      .add("bar", "2.0.0");
  EXPECT_EQ(solveOk(R), (Solution{{"foo", "1.0.0"}, {"bar", "1.0.0"}}));
}

TEST(SolverScenario, AvoidingConflictDuringDecisionMaking) {
  Registry R;
  R.add("root", "1.0.0", {{"foo", "^1.0.0"}, {"bar", "^1.0.0"}})
      .add("foo", "1.1.0", {{"bar", "^2.0.0"}})
      .add("foo", "1.0.0")
      .add("bar", "1.0.0")
      .add("bar", "1.1.0")
      .add("bar", "2.0.0");
  EXPECT_EQ(solveOk(R), (Solution{{"foo", "1.0.0"}, {"bar", "1.1.0"}}));
}

TEST(SolverScenario, PerformingConflictResolution) {
  Registry R;
  R.add("root", "1.0.0", {{"foo", ">=1.0.0"}})
      .add("foo", "2.0.0", {{"bar", "^1.0.0"}})
      .add("foo", "1.0.0")
      .add("bar", "1.0.0", {{"foo", "^1.0.0"}});
  EXPECT_EQ(solveOk(R), (Solution{{"foo", "1.0.0"}}));
}

TEST(SolverScenario, ConflictResolutionWithAPartialSatisfier) {
  Registry R;
  R.add("root", "1.0.0", {{"foo", "^1.0.0"}, {"target", "^2.0.0"}})
      .add("foo", "1.1.0", {{"left", "^1.0.0"}, {"right", "^1.0.0"}})
      .add("foo", "1.0.0")
      .add("left", "1.0.0", {{"shared", ">=1.0.0"}})
      .add("right", "1.0.0", {{"shared", "<2.0.0"}})
      .add("shared", "2.0.0")
      .add("shared", "1.0.0", {{"target", "^1.0.0"}})
      .add("target", "2.0.0")
      .add("target", "1.0.0");
  EXPECT_EQ(solveOk(R), (Solution{{"foo", "1.0.0"}, {"target", "2.0.0"}}));
}

TEST(SolverScenario, BackjumpsAfterAPartialSatisfier) {
  Registry R;
  R.add("myapp", "0.0.0", {{"c", "any"}, {"y", "^2.0.0"}})
      .add("a", "1.0.0", {{"x", ">=1.0.0"}})
      .add("b", "1.0.0", {{"x", "<2.0.0"}})
      .add("c", "1.0.0")
      .add("c", "2.0.0", {{"a", "any"}, {"b", "any"}})
      .add("x", "0.0.0")
      .add("x", "1.0.0", {{"y", "1.0.0"}})
      .add("x", "2.0.0")
      .add("y", "1.0.0")
      .add("y", "2.0.0");
  EXPECT_EQ(solveOk(R, "myapp", "0.0.0"),
            (Solution{{"c", "1.0.0"}, {"y", "2.0.0"}}));
}

TEST(SolverScenario, DiamondDependencyGraph) {
  Registry R;
  R.add("myapp", "0.0.0", {{"a", "any"}, {"b", "any"}})
      .add("a", "1.0.0")
      .add("a", "2.0.0", {{"c", "^1.0.0"}})
      .add("b", "1.0.0", {{"c", "^2.0.0"}})
      .add("b", "2.0.0", {{"c", "^3.0.0"}})
      .add("c", "1.0.0")
      .add("c", "2.0.0")
      .add("c", "3.0.0");
  EXPECT_EQ(solveOk(R, "myapp", "0.0.0"),
            (Solution{{"a", "1.0.0"}, {"b", "2.0.0"}, {"c", "3.0.0"}}));
}

TEST(SolverScenario, CircularDependencyOnOlderVersion) {
  Registry R;
  R.add("myapp", "0.0.0", {{"a", ">=1.0.0"}})
      .add("a", "1.0.0")
      .add("a", "2.0.0", {{"b", "1.0.0"}})
      .add("b", "1.0.0", {{"a", "1.0.0"}});
  EXPECT_EQ(solveOk(R, "myapp", "0.0.0"), (Solution{{"a", "1.0.0"}}));
}

TEST(SolverScenario, RollsBackLeafVersionsFirst) {
  Registry R;
  R.add("myapp", "0.0.0", {{"a", "any"}})
      .add("a", "1.0.0", {{"b", "any"}})
      .add("a", "2.0.0", {{"b", "any"}, {"c", "2.0.0"}})
      .add("b", "1.0.0")
      .add("b", "2.0.0", {{"c", "1.0.0"}})
      .add("c", "1.0.0")
      .add("c", "2.0.0");
  EXPECT_EQ(solveOk(R, "myapp", "0.0.0"),
            (Solution{{"a", "2.0.0"}, {"b", "1.0.0"}, {"c", "2.0.0"}}));
}

TEST(SolverScenario, SimpleTransitive) {
  Registry R;
  R.add("myapp", "0.0.0", {{"foo", "any"}})
      .add("foo", "1.0.0", {{"bar", "1.0.0"}})
      .add("foo", "2.0.0", {{"bar", "2.0.0"}})
      .add("foo", "3.0.0", {{"bar", "3.0.0"}})
      .add("bar", "1.0.0", {{"baz", "any"}})
      .add("bar", "2.0.0", {{"baz", "2.0.0"}})
      .add("bar", "3.0.0", {{"baz", "3.0.0"}})
      .add("baz", "1.0.0");
  EXPECT_EQ(solveOk(R, "myapp", "0.0.0"),
            (Solution{{"foo", "1.0.0"}, {"bar", "1.0.0"}, {"baz", "1.0.0"}}));
}

TEST(SolverScenario, SharedDependencyWithOverlappingConstraints) {
  Registry R;
  R.add("myapp", "0.0.0", {{"a", "1.0.0"}, {"b", "1.0.0"}})
      .add("a", "1.0.0", {{"shared", ">=2.0.0 <4.0.0"}})
      .add("b", "1.0.0", {{"shared", ">=3.0.0 <5.0.0"}})
      .add("shared", "2.0.0")
      .add("shared", "3.0.0")
      .add("shared", "3.6.9")
      .add("shared", "4.0.0")
      .add("shared", "5.0.0");
  EXPECT_EQ(solveOk(R, "myapp", "0.0.0"),
            (Solution{{"a", "1.0.0"}, {"b", "1.0.0"}, {"shared", "3.6.9"}}));
}

TEST(SolverScenario, ComplexBacktrack) {
  Registry R;
  R.add("myapp", "0.0.0", {{"foo", "any"}, {"bar", "any"}});
  for (int I = 0; I <= 9; ++I)
    for (int J = 0; J <= 9; ++J) {
      std::string IJ = std::to_string(I) + "." + std::to_string(J) + ".0";
      R.add("foo", IJ, {{"baz", std::to_string(I) + ".0.0"}});
      R.add("bar", IJ, {{"baz", "0." + std::to_string(J) + ".0"}});
    }
  R.add("baz", "0.0.0");
  EXPECT_EQ(solveOk(R, "myapp", "0.0.0"),
            (Solution{{"foo", "0.9.0"}, {"bar", "9.0.0"}, {"baz", "0.0.0"}}));
}

TEST(SolverScenario, TraverseIntoPackageWithFewerVersionsFirst) {
  Registry R;
  R.add("myapp", "0.0.0", {{"a", "any"}, {"b", "any"}});
  for (int I = 1; I <= 4; ++I)
    R.add("a", std::to_string(I) + ".0.0", {{"c", "any"}});
  R.add("a", "5.0.0", {{"c", "1.0.0"}});
  for (int I = 1; I <= 3; ++I)
    R.add("b", std::to_string(I) + ".0.0", {{"c", "any"}});
  R.add("b", "4.0.0", {{"c", "2.0.0"}});
  R.add("c", "1.0.0").add("c", "2.0.0");
  EXPECT_EQ(solveOk(R, "myapp", "0.0.0"),
            (Solution{{"a", "4.0.0"}, {"b", "4.0.0"}, {"c", "2.0.0"}}));
}

TEST(SolverScenario, DoubleChoices) {
  Registry R;
  R.add("a", "0", {{"b", "any"}, {"c", "any"}})
      .add("b", "0", {{"d", "0"}})
      .add("b", "1", {{"d", "1"}})
      .add("c", "0")
      .add("c", "1", {{"d", "2"}})
      .add("d", "0");
  EXPECT_EQ(solveOk(R, "a", "0"),
            (Solution{{"b", "0"}, {"c", "0"}, {"d", "0"}}));
}

TEST(SolverScenario, ProviderRanksCandidates) {
  // The provider, not the solver, decides which version is tried first.
  class OldestFirst : public Registry {
  public:
    std::vector<Version> versions(const std::string &Package) override {
      std::vector<Version> V = Registry::versions(Package);
      std::reverse(V.begin(), V.end());
      return V;
    }
  } R;
  R.add("root", "1.0.0", {{"foo", "any"}})
      .add("foo", "1.0.0")
      .add("foo", "2.0.0");
  EXPECT_EQ(solveOk(R), (Solution{{"foo", "1.0.0"}}));
}

TEST(SolverScenario, UnavailableVersionIsSkipped) {
  Registry R;
  R.add("root", "1.0.0", {{"foo", "any"}})
      .add("foo", "1.0.0")
      .addUnavailable("foo", "2.0.0", "no prebuilt binary");
  EXPECT_EQ(solveOk(R), (Solution{{"foo", "1.0.0"}}));
}

TEST(SolverScenario, FactSteersTheChoice) {
  // A machine fact: nvcc 12.x cannot use gcc 14; the solver picks gcc 13.
  Registry R;
  R.add("root", "1.0.0", {{"ext", "any"}})
      .add("ext", "1.0.0", {{"nvcc", ">=12.0.0"}, {"gcc", "any"}})
      .add("nvcc", "12.8.0")
      .add("gcc", "13.2.0")
      .add("gcc", "14.1.0");
  SolverFact F;
  F.Terms.emplace_back("nvcc", PackageTerm::positive(constraint("^12.0.0")));
  F.Terms.emplace_back("gcc", PackageTerm::negative(constraint("<14.0.0")));
  F.Text = "nvcc 12 supports gcc < 14";
  R.fact("nvcc", F);
  EXPECT_EQ(solveOk(R), (Solution{{"ext", "1.0.0"},
                                  {"nvcc", "12.8.0"},
                                  {"gcc", "13.2.0"}}));
}

// A conflict far above the decision it rests on: z 2.0.0 is decided first
// (the fewest versions), then 150 unrelated packages, then a 4.0.0 (the
// most), whose dependency w needs z <2. What is learned (w is incompatible
// with z >=2) rests on levels 2 and 153: backjumping to level 2 would undo
// the 150 unrelated decisions and make them again, chronological
// backtracking undoes only a's. Both find the same solution.
TEST(SolverScenario, BacktracksChronologicallyOverUnrelatedDecisions) {
  Registry R;
  std::vector<std::pair<std::string, std::string>> RootDeps{{"a", "any"},
                                                            {"z", "any"}};
  R.add("z", "1.0.0").add("z", "2.0.0");
  Solution Expected{{"z", "2.0.0"}, {"a", "3.0.0"}};
  for (int K = 0; K < 150; ++K) {
    std::string Number = std::to_string(K);
    std::string Name = "f" + std::string(3 - Number.size(), '0') + Number;
    RootDeps.emplace_back(Name, "any");
    R.add(Name, "1.0.0").add(Name, "2.0.0").add(Name, "3.0.0");
    Expected[Name] = "3.0.0";
  }
  R.add("root", "1.0.0", RootDeps)
      .add("a", "1.0.0")
      .add("a", "2.0.0")
      .add("a", "3.0.0")
      .add("a", "4.0.0", {{"w", "any"}})
      .add("w", "1.0.0", {{"z", "<2.0.0"}});

  auto Solve = [&](unsigned Distance) {
    PackageSolver Solver(R, "root", ver("1.0.0"));
    Solver.setChronologicalDistance(Distance);
    PackageSolveResult Result = Solver.solve();
    EXPECT_EQ(solutionOf(Result, "root"), Expected);
    return Result.Work;
  };
  auto Chronological = Solve(100);
  auto Backjumping = Solve(UINT_MAX);
  EXPECT_EQ(Chronological.Conflicts, 1u);
  EXPECT_EQ(Backjumping.Conflicts, 1u);
  EXPECT_LE(Chronological.Backjumped, 2u);
  EXPECT_GE(Backjumping.Backjumped, 150u);
  EXPECT_LT(Chronological.Decisions + 140, Backjumping.Decisions);
}

/// A provider that builds every range anew on each read, then drops it: the
/// solver keeps a version's dependencies by set id, and finds a range it saw
/// before by the array the range shares with its copies. A range built anew
/// may land where a dropped one was; it must still be read as itself.
class FreshRanges : public PackageProvider {
public:
  std::vector<Version> versions(const std::string &Package) override {
    std::vector<Version> Out;
    for (unsigned K = Package == "root" ? 1 : 12; K >= 1; --K)
      Out.push_back(Version({K, 0, 0}));
    return Out;
  }
  PackageDependencies dependencies(const std::string &Package,
                                   const Version &V) override {
    std::vector<std::pair<std::string, VersionSet>> On;
    if (Package == "root") {
      On.emplace_back("a", constraint("any"));
      On.emplace_back("b", constraint("1.0.0"));
    } else if (Package == "a") {
      // Versions 2k-1 and 2k need b >= k: pairs of equal ranges, each
      // built on its own, then a different one.
      std::string Floor = std::to_string((V.major() + 1) / 2);
      On.emplace_back("b", constraint(">=" + Floor + ".0.0"));
    }
    return PackageDependencies::available(std::move(On));
  }
  std::vector<SolverFact> facts(const std::string &) override { return {}; }
};

TEST(SolverScenario, RangesBuiltAnewForEachVersionKeepTheirOwnBounds) {
  // Only a 1 and a 2 allow b 1.0.0, which the root pins: every newer a is
  // ruled out by its own range, whatever the search or the pruning reads
  // first.
  for (unsigned PruneAfter : {0u, 64u, UINT_MAX}) {
    FreshRanges R;
    PackageSolver S(R, "root", ver("1.0.0"));
    S.setPruneAfter(PruneAfter);
    PackageSolveResult Result = S.solve();
    ASSERT_TRUE(Result.solved()) << explainFailure(*Result.Failure, pubStyle());
    EXPECT_EQ(solutionOf(Result, "root"),
              (Solution{{"a", "2.0.0"}, {"b", "1.0.0"}}))
        << "prune after " << PruneAfter;
  }
}

/// The same registry, its dependees given by number (numberedDependencies()):
/// numbered from the last name first, so that no number is a package id,
/// and each number's name counted where the solver asks it.
class NumberedRegistry : public Registry {
public:
  bool
  numberedDependencies(const std::string &Package, const Version &V,
                       solver::NumberedDependencies<VersionSet> &Out) override {
    PackageDependencies D = dependencies(Package, V);
    Out.Available = D.Available;
    Out.Reason = D.Reason;
    for (auto &[Name, Set] : D.On) {
      auto It = Numbers.find(Name);
      if (It == Numbers.end())
        It = Numbers.emplace(Name, 1000 - uint32_t(Numbers.size())).first;
      Out.On.emplace_back(It->second, Set);
    }
    return true;
  }
  std::string nameOf(uint32_t Id) const override {
    ++Asked[Id];
    for (auto &[Name, Number] : Numbers)
      if (Number == Id)
        return Name;
    ADD_FAILURE() << "no name numbered " << Id;
    return "";
  }
  std::map<std::string, uint32_t> Numbers;
  mutable std::map<uint32_t, unsigned> Asked;
};

TEST(SolverScenario, DependeesByNumberSolveAndFailAsByName) {
  // A search with backtracking, an unavailable version, and then a root
  // that cannot be satisfied: each the same by number as by name.
  auto Fill = [](Registry &R) {
    // The root's own dependencies are read by name: app's by number.
    R.add("myapp", "0.0.0", {{"app", "any"}});
    R.add("app", "1.0.0", {{"foo", "any"}, {"bar", "any"}});
    for (int I = 0; I <= 4; ++I)
      for (int J = 0; J <= 4; ++J) {
        std::string IJ = std::to_string(I) + "." + std::to_string(J) + ".0";
        R.add("foo", IJ, {{"baz", std::to_string(I) + ".0.0"}});
        R.add("bar", IJ, {{"baz", "0." + std::to_string(J) + ".0"}});
      }
    R.add("baz", "0.0.0");
    R.addUnavailable("baz", "0.1.0", "its sources are gone");
    R.add("bad", "1.0.0", {{"badapp", "any"}});
    R.add("badapp", "1.0.0", {{"foo", ">=1.0.0"}, {"bar", ">=1.0.0"}});
  };
  Registry Named;
  NumberedRegistry Numbered;
  Fill(Named);
  Fill(Numbered);
  PackageSolveResult A = solvePackages(Named, "myapp", ver("0.0.0"));
  PackageSolveResult B = solvePackages(Numbered, "myapp", ver("0.0.0"));
  ASSERT_TRUE(A.solved() && B.solved());
  EXPECT_EQ(solutionOf(B, "myapp"), solutionOf(A, "myapp"));
  EXPECT_EQ(solutionOf(B, "myapp"), (Solution{{"app", "1.0.0"},
                                              {"foo", "0.4.0"},
                                              {"bar", "4.0.0"},
                                              {"baz", "0.0.0"}}));
  // Every number the solver met was named once.
  EXPECT_EQ(Numbered.Numbers.size(), 3u); // foo, bar, baz
  EXPECT_EQ(Numbered.Asked.size(), Numbered.Numbers.size());
  for (auto &[Number, Times] : Numbered.Asked)
    EXPECT_EQ(Times, 1u) << Number;

  PackageSolveResult C = solvePackages(Named, "bad", ver("1.0.0"));
  PackageSolveResult D = solvePackages(Numbered, "bad", ver("1.0.0"));
  ASSERT_FALSE(C.solved());
  ASSERT_FALSE(D.solved());
  EXPECT_EQ(explainFailure(*D.Failure, pubStyle()),
            explainFailure(*C.Failure, pubStyle()));
}

/// The same registry, its ranges given by number too (ByNumber,
/// rangeOf()): each version's first dependency in On with its set, the
/// others in ByNumber, so that a version has both; ranges numbered from
/// 500 down by their text, each number's range counted where the solver
/// asks it.
class RangeNumberedRegistry : public NumberedRegistry {
public:
  bool
  numberedDependencies(const std::string &Package, const Version &V,
                       solver::NumberedDependencies<VersionSet> &Out) override {
    NumberedRegistry::numberedDependencies(Package, V, Out);
    for (size_t K = 1; K < Out.On.size(); ++K) {
      const VersionSet &Set = Out.On[K].second;
      auto It = Ranges.find(Set.str());
      if (It == Ranges.end())
        It = Ranges
                 .emplace(Set.str(),
                          std::pair(500 - uint32_t(Ranges.size()), Set))
                 .first;
      Out.ByNumber.emplace_back(Out.On[K].first, It->second.first);
    }
    if (Out.On.size() > 1)
      Out.On.resize(1);
    return true;
  }
  VersionSet rangeOf(uint32_t Number) const override {
    ++RangeAsked[Number];
    for (auto &[Text, Numbered] : Ranges)
      if (Numbered.first == Number)
        return Numbered.second;
    ADD_FAILURE() << "no range numbered " << Number;
    return VersionSet::empty();
  }
  std::map<std::string, std::pair<uint32_t, VersionSet>> Ranges;
  mutable std::map<uint32_t, unsigned> RangeAsked;
};

TEST(SolverScenario, RangesByNumberSolveAndFailAsBySet) {
  // Versions whose dependencies are in On and in ByNumber together, in
  // that order, with ranges shared between versions and packages; a
  // search with backtracking, pruning, and a root that cannot be
  // satisfied, each the same with ranges by number as with sets.
  auto Fill = [](Registry &R) {
    R.add("myapp", "0.0.0", {{"app", "any"}});
    R.add("app", "1.0.0", {{"foo", "any"}, {"bar", "any"}, {"baz", "any"}});
    for (int I = 0; I <= 4; ++I)
      for (int J = 0; J <= 4; ++J) {
        std::string IJ = std::to_string(I) + "." + std::to_string(J) + ".0";
        R.add("foo", IJ, {{"qux", "any"}, {"baz", std::to_string(I) + ".0.0"}});
        R.add("bar", IJ,
              {{"qux", "any"}, {"baz", "0." + std::to_string(J) + ".0"}});
      }
    R.add("qux", "1.0.0");
    R.add("baz", "0.0.0");
    R.addUnavailable("baz", "0.1.0", "its sources are gone");
    R.add("bad", "1.0.0", {{"badapp", "any"}});
    R.add("badapp", "1.0.0",
          {{"qux", "any"}, {"foo", ">=1.0.0"}, {"bar", ">=1.0.0"}});
  };
  for (unsigned PruneAfter : {0u, UINT_MAX}) {
    SCOPED_TRACE(PruneAfter);
    for (const char *Root : {"myapp", "bad"}) {
      Registry Named;
      RangeNumberedRegistry Numbered;
      Fill(Named);
      Fill(Numbered);
      PackageSolver SA(Named, Root,
                       ver(Root == std::string("bad") ? "1.0.0" : "0.0.0"));
      PackageSolver SB(Numbered, Root,
                       ver(Root == std::string("bad") ? "1.0.0" : "0.0.0"));
      SA.setPruneAfter(PruneAfter);
      SB.setPruneAfter(PruneAfter);
      PackageSolveResult A = SA.solve(), B = SB.solve();
      ASSERT_EQ(A.solved(), B.solved()) << Root;
      if (A.solved())
        EXPECT_EQ(solutionOf(B, Root), solutionOf(A, Root));
      else
        EXPECT_EQ(explainFailure(*B.Failure, pubStyle()),
                  explainFailure(*A.Failure, pubStyle()));
      // Ranges were given by number, and each number met asked once.
      EXPECT_FALSE(Numbered.RangeAsked.empty()) << Root;
      for (auto &[Number, Times] : Numbered.RangeAsked)
        EXPECT_EQ(Times, 1u) << Root << ": range " << Number;
    }
  }
}
