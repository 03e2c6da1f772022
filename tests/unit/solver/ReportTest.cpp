//===- ReportTest.cpp - explanations of failed solves, in pub's words -----===//
//
// The unsolvable canonical examples (C.5, C.6, C.7 of
// shared/reference/prior-art.md) with the exact texts of dart-lang/pub.
//
//===----------------------------------------------------------------------===//

#include "tests/unit/solver/SolverTestSupport.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

#include <sstream>

using namespace cudadeps;
using namespace cudadeps::testing;

static std::string explain(Registry &R, const std::string &Root,
                           llvm::StringRef RootVersion) {
  PackageSolveResult Result = solvePackages(R, Root, ver(RootVersion));
  EXPECT_FALSE(Result.solved());
  if (Result.solved())
    return "";
  return explainFailure(*Result.Failure, pubStyle());
}

/// Collapses runs of whitespace, like pub's equalsIgnoringWhitespace.
static std::string squash(const std::string &S) {
  std::istringstream In(S);
  std::string Word, Out;
  while (In >> Word)
    Out += (Out.empty() ? "" : " ") + Word;
  return Out;
}

// solver.md lists root's dependencies as "foo ^1.0.0 and baz ^1.0.0" but its
// trace derives them in the other order. pub's implementation propagates an
// incompatibility list newest first, so the root's dependencies are given in
// the order baz, foo here; the derivation is then exactly solver.md's:
// #12 from (#6, #9), #13 from (#12, root->baz), #14 from (#13, root->foo).
static Registry linearGraph() {
  Registry R;
  R.add("root", "1.0.0", {{"baz", "^1.0.0"}, {"foo", "^1.0.0"}})
      .add("foo", "1.0.0", {{"bar", "^2.0.0"}})
      .add("bar", "2.0.0", {{"baz", "^3.0.0"}})
      .add("baz", "1.0.0")
      .add("baz", "3.0.0");
  return R;
}

TEST(SolverReport, LinearErrorReporting) {
  Registry R = linearGraph();
  EXPECT_EQ(explain(R, "root", "1.0.0"),
            "Because every version of foo depends on bar ^2.0.0 which depends "
            "on baz ^3.0.0, every version of foo requires baz ^3.0.0.\n"
            "So, because root depends on both baz ^1.0.0 and foo ^1.0.0, "
            "version solving failed.");
}

TEST(SolverReport, LinearDerivationMatchesSolverMd) {
  Registry R = linearGraph();
  PackageSolveResult Result = solvePackages(R, "root", ver("1.0.0"));
  ASSERT_FALSE(Result.solved());
  const PackageDerivation &T = *Result.Failure;
  PackageReportStyle Style = pubStyle();
  solver::Reporter<std::string, VersionSet> Words(T, Style);
  auto Says = [&](solver::IncompId Id) { return Words.str(T[Id]); };
  const auto &Top = T.top(); // #14 {root}
  ASSERT_EQ(Top.Kind, solver::CauseKind::Derived);
  EXPECT_EQ(Says(T.Top), "version solving failed");
  EXPECT_EQ(Says(Top.Cause2), "root depends on foo ^1.0.0");
  const auto &N13 = T[Top.Cause1];
  ASSERT_EQ(N13.Kind, solver::CauseKind::Derived);
  EXPECT_EQ(Says(N13.Cause2), "root depends on baz ^1.0.0");
  const auto &N12 = T[N13.Cause1];
  EXPECT_EQ(Says(N13.Cause1), "every version of foo requires baz ^3.0.0");
  EXPECT_EQ(Says(N12.Cause1), "every version of foo depends on bar ^2.0.0");
  EXPECT_EQ(Says(N12.Cause2), "every version of bar depends on baz ^3.0.0");
  EXPECT_EQ(T.externals().size(), 4u);
}

TEST(SolverReport, BranchingErrorReporting) {
  Registry R;
  R.add("myapp", "0.0.0", {{"foo", "^1.0.0"}})
      .add("foo", "1.0.0", {{"a", "^1.0.0"}, {"b", "^1.0.0"}})
      .add("foo", "1.1.0", {{"x", "^1.0.0"}, {"y", "^1.0.0"}})
      .add("a", "1.0.0", {{"b", "^2.0.0"}})
      .add("b", "1.0.0")
      .add("b", "2.0.0")
      .add("x", "1.0.0", {{"y", "^2.0.0"}})
      .add("y", "1.0.0")
      .add("y", "2.0.0");
  EXPECT_EQ(
      explain(R, "myapp", "0.0.0"),
      "    Because foo <1.1.0 depends on a ^1.0.0 which depends on b ^2.0.0, "
      "foo <1.1.0 requires b ^2.0.0.\n"
      "(1) So, because foo <1.1.0 depends on b ^1.0.0, foo <1.1.0 is "
      "forbidden.\n"
      "\n"
      "    Because foo >=1.1.0 depends on x ^1.0.0 which depends on y ^2.0.0, "
      "foo >=1.1.0 requires y ^2.0.0.\n"
      "    And because foo >=1.1.0 depends on y ^1.0.0, foo >=1.1.0 is "
      "forbidden.\n"
      "    And because foo <1.1.0 is forbidden (1), foo is forbidden.\n"
      "    So, because myapp depends on foo ^1.0.0, version solving failed.");
}

TEST(SolverReport, NoVersionThatMatchesConstraint) {
  Registry R;
  R.add("myapp", "0.0.0", {{"foo", ">=1.0.0 <2.0.0"}})
      .add("foo", "2.0.0")
      .add("foo", "2.1.3");
  EXPECT_THAT(explain(R, "myapp", "0.0.0"),
              ::testing::HasSubstr(
                  "Because myapp depends on foo ^1.0.0 which doesn't match "
                  "any versions, version solving failed."));
}

TEST(SolverReport, DisjointConstraints) {
  Registry R;
  R.add("myapp", "0.0.0", {{"foo", "1.0.0"}, {"bar", "1.0.0"}})
      .add("foo", "1.0.0", {{"shared", "<=2.0.0"}})
      .add("bar", "1.0.0", {{"shared", ">3.0.0"}})
      .add("shared", "2.0.0")
      .add("shared", "4.0.0");
  EXPECT_EQ(squash(explain(R, "myapp", "0.0.0")),
            "Because every version of bar depends on shared >3.0.0 and every "
            "version of foo depends on shared <=2.0.0, bar is incompatible "
            "with foo. So, because myapp depends on both foo 1.0.0 and bar "
            "1.0.0, version solving failed.");
}

TEST(SolverReport, NoVersionThatMatchesCombinedConstraint) {
  Registry R;
  R.add("myapp", "0.0.0", {{"foo", "1.0.0"}, {"bar", "1.0.0"}})
      .add("foo", "1.0.0", {{"shared", ">=2.0.0 <3.0.0"}})
      .add("bar", "1.0.0", {{"shared", ">=2.9.0 <4.0.0"}})
      .add("shared", "2.5.0")
      .add("shared", "3.5.0");
  EXPECT_EQ(squash(explain(R, "myapp", "0.0.0")),
            "Because every version of foo depends on shared ^2.0.0 and no "
            "versions of shared match ^2.9.0, every version of foo requires "
            "shared >=2.0.0 <2.9.0. And because every version of bar depends "
            "on shared >=2.9.0 <4.0.0, bar is incompatible with foo. So, "
            "because myapp depends on both foo 1.0.0 and bar 1.0.0, version "
            "solving failed.");
}

TEST(SolverReport, NoValidSolution) {
  Registry R;
  R.add("myapp", "0.0.0", {{"a", "any"}, {"b", "any"}})
      .add("a", "1.0.0", {{"b", "1.0.0"}})
      .add("a", "2.0.0", {{"b", "2.0.0"}})
      .add("b", "1.0.0", {{"a", "2.0.0"}})
      .add("b", "2.0.0", {{"a", "1.0.0"}});
  EXPECT_EQ(squash(explain(R, "myapp", "0.0.0")),
            "Because b <2.0.0 depends on a 2.0.0 which depends on b 2.0.0, b "
            "<2.0.0 is forbidden. Because b >=2.0.0 depends on a 1.0.0 which "
            "depends on b 1.0.0, b >=2.0.0 is forbidden. Thus, b is "
            "forbidden. So, because myapp depends on b any, version solving "
            "failed.");
}

/// Ranges spelt out, never with a caret (the pubgrub-rs README's wording).
static std::string plainSetText(const VersionSet &Set) {
  if (Set.isAny())
    return "any";
  std::string Out;
  for (const Interval &I : Set.intervals()) {
    if (!Out.empty())
      Out += " or ";
    if (I.Lower.Value && I.Upper.Value && I.Lower.Inclusive &&
        I.Upper.Inclusive && *I.Lower.Value == *I.Upper.Value) {
      Out += I.Lower.Value->str();
      continue;
    }
    std::string Part;
    if (I.Lower.Value)
      Part += (I.Lower.Inclusive ? ">=" : ">") + I.Lower.Value->str();
    if (I.Upper.Value)
      Part += std::string(Part.empty() ? "" : " ") +
              (I.Upper.Inclusive ? "<=" : "<") + I.Upper.Value->str();
    Out += Part;
  }
  return Out;
}

TEST(SolverReport, PubGrubReadmeExample) {
  // The graph of the pubgrub-rs README (C.7 #15). Its text comes from a
  // solver that learns {dropdown >=2.0.0} on its own; pub's algorithm, which
  // keeps the root at decision level 1 and backjumps over that conflict
  // without learning, proves the same failure through a different chain.
  // This pins pub's proof, worded with spelt-out ranges.
  Registry R;
  R.add("root", "1.0.0",
        {{"menu", ">=1.0.0"}, {"icons", "<2.0.0"}, {"intl", ">=5.0.0"}})
      .add("menu", "1.0.0", {{"dropdown", ">=1.0.0 <2.0.0"}})
      .add("menu", "1.1.0", {{"dropdown", ">=2.0.0"}})
      .add("dropdown", "1.0.0", {{"intl", "<4.0.0"}})
      .add("dropdown", "2.0.0", {{"icons", ">=2.0.0"}})
      .add("icons", "1.0.0")
      .add("icons", "2.0.0")
      .add("intl", "3.0.0")
      .add("intl", "5.0.0");
  PackageSolveResult Result = solvePackages(R, "root", ver("1.0.0"));
  ASSERT_FALSE(Result.solved());
  PackageReportStyle Style = pubStyle();
  Style.Set = plainSetText;
  EXPECT_EQ(
      explainFailure(*Result.Failure, Style),
      "Because menu <1.1.0 depends on dropdown >=1.0.0 <2.0.0 which depends "
      "on intl <4.0.0, menu <1.1.0 requires intl <4.0.0.\n"
      "And because menu >=1.1.0 depends on dropdown >=2.0.0, every version of "
      "menu requires intl <4.0.0 or dropdown >=2.0.0.\n"
      "And because dropdown >=2.0.0 depends on icons >=2.0.0 and root depends "
      "on menu >=1.0.0, either intl <4.0.0 or icons >=2.0.0.\n"
      "So, because root depends on both icons <2.0.0 and intl >=5.0.0, "
      "version solving failed.");
}

TEST(SolverReport, CustomFactAppearsInTheExplanation) {
  Registry R;
  R.add("myapp", "0.0.0", {{"causal-conv1d", "any"}})
      .add("causal-conv1d", "1.5.0", {{"nvcc", ">=12.0.0"}})
      .add("nvcc", "12.8.0");
  SolverFact NoNvcc;
  NoNvcc.Terms.emplace_back("nvcc", PackageTerm::positive(VersionSet::any()));
  NoNvcc.Text = "no nvcc was found on this machine";
  R.fact("myapp", NoNvcc);
  std::string Text = explain(R, "myapp", "0.0.0");
  EXPECT_THAT(Text, ::testing::HasSubstr("no nvcc was found on this machine"));
  EXPECT_THAT(Text, ::testing::HasSubstr(
                        "every version of causal-conv1d depends on nvcc "
                        ">=12.0.0"));
  EXPECT_THAT(Text, ::testing::EndsWith("version solving failed."));
}

TEST(SolverReport, CustomFactWordingComesFromTheStyle) {
  Registry R;
  R.add("myapp", "0.0.0", {{"nvcc", "any"}}).add("nvcc", "12.8.0");
  SolverFact NoNvcc;
  NoNvcc.Terms.emplace_back("nvcc", PackageTerm::positive(VersionSet::any()));
  NoNvcc.Text = "raw";
  R.fact("nvcc", NoNvcc);
  PackageSolveResult Result = solvePackages(R, "myapp", ver("0.0.0"));
  ASSERT_FALSE(Result.solved());
  PackageReportStyle Style = pubStyle();
  Style.External = [](const solver::Incompatibility<std::string, VersionSet>
                          &I) { return "no " + I.Terms.front().first +
                                       " was found (" + I.Text + ")"; };
  EXPECT_EQ(explainFailure(*Result.Failure, Style),
            "Because no nvcc was found (raw) and myapp depends on nvcc any, "
            "version solving failed.");
}

TEST(SolverReport, UnavailableVersionSaysWhy) {
  Registry R;
  R.add("myapp", "0.0.0", {{"foo", "2.0.0"}})
      .addUnavailable("foo", "2.0.0", "its sources could not be fetched");
  EXPECT_THAT(explain(R, "myapp", "0.0.0"),
              ::testing::HasSubstr(
                  "foo 2.0.0 is unavailable (its sources could not be "
                  "fetched)"));
}

TEST(SolverReport, Pep440StyleNamesSpecifiers) {
  Registry R;
  R.add("myapp", "0.0.0", {{"foo", ">=1.0.0 <2.0.0"}}).add("foo", "2.0.0");
  PackageSolveResult Result = solvePackages(R, "myapp", ver("0.0.0"));
  ASSERT_FALSE(Result.solved());
  // Written as a user writes it, not as the exact PEP 440 round trip
  // ("<=2.0.0,!=2.0.0").
  EXPECT_EQ(explainFailure(*Result.Failure),
            "Because myapp depends on foo >=1.0.0,<2.0.0 which doesn't match "
            "any versions, version solving failed.");
}

// --- further exact texts from dart-lang/pub's test suite ------------------

TEST(SolverReport, NoVersionThatMatchesWhileBacktracking) {
  Registry R;
  R.add("myapp", "0.0.0", {{"a", "any"}, {"b", ">1.0.0"}})
      .add("a", "1.0.0")
      .add("b", "1.0.0");
  EXPECT_EQ(squash(explain(R, "myapp", "0.0.0")),
            "Because myapp depends on b >1.0.0 which doesn't match any "
            "versions, version solving failed.");
}

TEST(SolverReport, Issue18300) {
  Registry R;
  R.add("myapp", "0.0.0", {{"angular", "any"}, {"collection", "any"}})
      .add("analyzer", "0.12.2");
  for (const char *V : {"0.10.0", "0.9.11", "0.9.10"})
    R.add("angular", V,
          {{"di", ">=0.0.32 <0.1.0"}, {"collection", ">=0.9.1 <1.0.0"}});
  R.add("collection", "0.9.0")
      .add("collection", "0.9.1")
      .add("di", "0.0.37", {{"analyzer", ">=0.13.0 <0.14.0"}})
      .add("di", "0.0.36", {{"analyzer", ">=0.13.0 <0.14.0"}});
  EXPECT_EQ(squash(explain(R, "myapp", "0.0.0")),
            "Because every version of angular depends on di ^0.0.32 which "
            "depends on analyzer ^0.13.0, every version of angular requires "
            "analyzer ^0.13.0. So, because no versions of analyzer match "
            "^0.13.0 and myapp depends on angular any, version solving "
            "failed.");
}

TEST(SolverReport, ConfusingWithLotsOfHoles) {
  // pubgrub-rs tests/examples.rs: the explanation names root, foo and bar
  // only; range collapsing means no per-version holes are listed.
  Registry R;
  R.add("root", "1.0.0", {{"foo", "any"}, {"baz", "any"}}).add("baz", "1.0.0");
  for (const char *V : {"1.0.0", "2.0.0", "3.0.0", "4.0.0", "5.0.0"})
    R.add("foo", V, {{"bar", "any"}});
  std::string Text = explain(R, "root", "1.0.0");
  EXPECT_EQ(Text, "Because every version of foo depends on bar any which "
                  "doesn't match any versions, foo is forbidden.\n"
                  "So, because root depends on foo any, version solving "
                  "failed.");
  EXPECT_THAT(Text, ::testing::Not(::testing::HasSubstr("baz")));
}
