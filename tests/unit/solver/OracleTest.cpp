//===- OracleTest.cpp - the solver against brute force --------------------===//
//
// Hundreds of small random registries (fixed seed): the solver must find a
// solution exactly when enumerating every assignment finds one, a solution
// it returns must satisfy every dependency of every selected version, and a
// failure must come with a proof that reads as a complete explanation.
// Queries after a solve ("a solution with p at v?"), asked one after
// another of the same solver, must agree with brute force too.
//
//===----------------------------------------------------------------------===//

#include "tests/unit/solver/SolverTestSupport.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

#include <climits>
#include <cstdint>
#include <optional>
#include <random>

using namespace cudadeps;
using namespace cudadeps::testing;

namespace {

struct RandomVersion {
  unsigned Major;
  bool Available;
  std::vector<std::pair<std::string, VersionSet>> Deps;
};

struct RandomRegistry {
  std::vector<std::string> Names;
  std::map<std::string, std::vector<RandomVersion>> Packages;
  std::vector<std::pair<std::string, VersionSet>> RootDeps;
};

class Generator {
public:
  explicit Generator(uint32_t Seed) : Rng(Seed) {}

  unsigned below(unsigned N) { return Rng() % N; }

  VersionSet randomRange() {
    auto V = [&] { return Version({below(6) + 1, 0, 0}); };
    switch (below(6)) {
    case 0:
      return VersionSet::any();
    case 1:
      return VersionSet::exactly(V());
    case 2:
      return VersionSet::atLeast(V());
    case 3:
      return VersionSet::lessThan(V());
    case 4: {
      Version A = V(), B = V();
      if (B < A)
        std::swap(A, B);
      return VersionSet::between(A, B); // possibly empty
    }
    default:
      return VersionSet::exactly(V()).unionWith(VersionSet::atLeast(V()));
    }
  }

  RandomRegistry make() {
    RandomRegistry R;
    unsigned N = 3 + below(3);
    for (unsigned I = 0; I < N; ++I)
      R.Names.push_back("p" + std::to_string(I));
    for (const std::string &Name : R.Names) {
      unsigned Count = 1 + below(4);
      std::vector<unsigned> Majors;
      while (Majors.size() < Count) {
        unsigned M = below(6) + 1;
        if (std::find(Majors.begin(), Majors.end(), M) == Majors.end())
          Majors.push_back(M);
      }
      for (unsigned M : Majors) {
        RandomVersion RV{M, below(10) != 0, {}};
        unsigned DepCount = below(3);
        for (unsigned D = 0; D < DepCount; ++D) {
          const std::string &Dep = R.Names[below(N)];
          if (Dep == Name)
            continue;
          bool Seen = false;
          for (auto &E : RV.Deps)
            Seen = Seen || E.first == Dep;
          if (!Seen)
            RV.Deps.emplace_back(Dep, randomRange());
        }
        R.Packages[Name].push_back(std::move(RV));
      }
    }
    unsigned RootCount = 1 + below(2);
    for (unsigned D = 0; D < RootCount; ++D) {
      const std::string &Dep = R.Names[below(N)];
      bool Seen = false;
      for (auto &E : R.RootDeps)
        Seen = Seen || E.first == Dep;
      if (!Seen)
        R.RootDeps.emplace_back(Dep, randomRange());
    }
    return R;
  }

private:
  std::mt19937 Rng;
};

class RandomProvider : public PackageProvider {
public:
  explicit RandomProvider(const RandomRegistry &R) : R(R) {}
  std::vector<Version> versions(const std::string &Package) override {
    std::vector<Version> Out;
    auto It = R.Packages.find(Package);
    if (It == R.Packages.end())
      return Out;
    for (const RandomVersion &V : It->second)
      Out.push_back(Version({V.Major, 0, 0}));
    std::sort(Out.begin(), Out.end(),
              [](const Version &A, const Version &B) { return B < A; });
    return Out;
  }
  PackageDependencies dependencies(const std::string &Package,
                                   const Version &V) override {
    if (Package == "root")
      return PackageDependencies::available(R.RootDeps);
    for (const RandomVersion &RV : R.Packages.at(Package))
      if (Version({RV.Major, 0, 0}) == V)
        return RV.Available ? PackageDependencies::available(RV.Deps)
                            : PackageDependencies::unavailable("broken");
    return PackageDependencies::unavailable("no such version");
  }

private:
  const RandomRegistry &R;
};

using Selection = std::map<std::string, unsigned>; // package -> major

static bool satisfied(const RandomRegistry &R,
                      const std::vector<std::pair<std::string, VersionSet>> &Deps,
                      const Selection &S) {
  for (const auto &[Dep, Set] : Deps) {
    auto It = S.find(Dep);
    if (It == S.end() || !Set.contains(Version({It->second, 0, 0})))
      return false;
  }
  return true;
}

static bool valid(const RandomRegistry &R, const Selection &S) {
  if (!satisfied(R, R.RootDeps, S))
    return false;
  for (const auto &[Name, Major] : S) {
    const RandomVersion *Found = nullptr;
    for (const RandomVersion &RV : R.Packages.at(Name))
      if (RV.Major == Major)
        Found = &RV;
    if (!Found || !Found->Available || !satisfied(R, Found->Deps, S))
      return false;
  }
  return true;
}

/// A solution's versions (majors), the root left out.
static Selection selectionOf(const PackageSolveResult &Result) {
  Selection S;
  for (const auto &[Name, V] : *Result.Solution)
    if (Name != "root")
      S[Name] = V.major();
  return S;
}

/// Whether any assignment (each package absent or at one of its versions)
/// satisfies everything (and has Pinned at major Pin, where set).
static bool bruteForceSolvable(const RandomRegistry &R,
                               const std::string &Pinned = "",
                               unsigned Pin = 0) {
  std::vector<size_t> Choice(R.Names.size(), 0); // 0 = absent
  while (true) {
    Selection S;
    for (size_t I = 0; I < R.Names.size(); ++I)
      if (Choice[I])
        S[R.Names[I]] = R.Packages.at(R.Names[I])[Choice[I] - 1].Major;
    if (valid(R, S) &&
        (Pinned.empty() || (S.count(Pinned) && S[Pinned] == Pin)))
      return true;
    size_t I = 0;
    for (; I < R.Names.size(); ++I) {
      if (++Choice[I] <= R.Packages.at(R.Names[I]).size())
        break;
      Choice[I] = 0;
    }
    if (I == R.Names.size())
      return false;
  }
}

} // namespace

/// How a registry is solved: with backjumping as the solver does it (these
/// problems are too small for a backjump to skip 100 levels) or with
/// chronological backtracking wherever a backjump would skip a level; each
/// either without pruning (too few conflicts to reach it) or pruning dead
/// versions as soon as the root is decided.
struct OracleMode {
  unsigned Distance;
  bool Prune;
};

static void configure(PackageSolver &Solver, const OracleMode &M) {
  Solver.setChronologicalDistance(M.Distance);
  Solver.setPruneAfter(M.Prune ? 0 : UINT_MAX);
}

static std::string modeName(const ::testing::TestParamInfo<OracleMode> &I) {
  return std::string(I.param.Distance ? "Backjumping" : "Chronological") +
         (I.param.Prune ? "Pruned" : "");
}

static const auto Modes =
    ::testing::Values(OracleMode{100, false}, OracleMode{0, false},
                      OracleMode{100, true}, OracleMode{0, true});

class SolverOracle : public ::testing::TestWithParam<OracleMode> {};

TEST_P(SolverOracle, AgreesWithBruteForceOnRandomRegistries) {
  Generator G(20240611);
  unsigned Solvable = 0, Unsolvable = 0, Pruned = 0;
  for (unsigned Case = 0; Case < 300; ++Case) {
    RandomRegistry R = G.make();
    RandomProvider Provider(R);
    PackageSolver Solver(Provider, "root", ver("1.0.0"));
    configure(Solver, GetParam());
    PackageSolveResult Result = Solver.solve();
    Pruned += Result.Work.Pruned > 0;
    bool Expected = bruteForceSolvable(R);
    ASSERT_EQ(Result.solved(), Expected) << "case " << Case;
    if (Result.solved()) {
      ++Solvable;
      EXPECT_EQ(Result.Solution->at("root"), ver("1.0.0"));
      EXPECT_TRUE(valid(R, selectionOf(Result))) << "case " << Case;
    } else {
      ++Unsolvable;
      const PackageDerivation &Tree = *Result.Failure;
      EXPECT_TRUE(Tree.top().isFailure("root")) << "case " << Case;
      std::string Text = explainFailure(Tree, pubStyle());
      EXPECT_THAT(Text, ::testing::EndsWith("version solving failed."))
          << "case " << Case << "\n" << Text;
    }
  }
  // The generator must exercise both outcomes, and pruning where it is on.
  EXPECT_GT(Solvable, 50u);
  EXPECT_GT(Unsolvable, 50u);
  if (GetParam().Prune)
    EXPECT_GT(Pruned, 50u);
  else
    EXPECT_EQ(Pruned, 0u);
}

INSTANTIATE_TEST_SUITE_P(Backtracking, SolverOracle, Modes, modeName);

/// Every version of every package asked of one solver in turn, with room
/// enough for a proof either way: what earlier queries learned and forgot
/// (and, pruned, what the solve found dead) must not change a later answer.
class SolverOracleQueries : public ::testing::TestWithParam<OracleMode> {};

TEST_P(SolverOracleQueries, SuccessiveQueriesAgreeWithBruteForce) {
  Generator G(20261203);
  unsigned Asked = 0, Possible = 0;
  for (unsigned Case = 0; Case < 200; ++Case) {
    RandomRegistry R = G.make();
    RandomProvider Provider(R);
    PackageSolver Solver(Provider, "root", ver("1.0.0"));
    configure(Solver, GetParam());
    if (!Solver.solve().solved())
      continue;
    Solver.setQueryLimits({100000, 1000000, 1000000});
    for (const std::string &Name : R.Names)
      for (const RandomVersion &RV : R.Packages.at(Name)) {
        PackageSolveResult Q = Solver.query(
            Name, VersionSet::exactly(Version({RV.Major, 0, 0})), 1000);
        ++Asked;
        ASSERT_FALSE(Q.Undecided) << "case " << Case;
        bool Expected = bruteForceSolvable(R, Name, RV.Major);
        ASSERT_EQ(Q.solved(), Expected)
            << "case " << Case << ": " << Name << " " << RV.Major;
        if (!Q.solved())
          continue;
        ++Possible;
        Selection S = selectionOf(Q);
        EXPECT_TRUE(valid(R, S)) << "case " << Case;
        EXPECT_EQ(S[Name], RV.Major) << "case " << Case;
      }
  }
  EXPECT_GT(Possible, 100u);
  EXPECT_GT(Asked - Possible, 100u);
}

INSTANTIATE_TEST_SUITE_P(Backtracking, SolverOracleQueries, Modes, modeName);
