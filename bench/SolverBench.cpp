//===- SolverBench.cpp - micro-benchmarks of version sets and the solver --===//
//
// Google Benchmark: the version-set operations the solver's hot path uses,
// and whole solves of registries with a planted solution (N packages x 20
// versions, <= 3 dependencies per version, 50 root requirements, a third of
// the versions traps that exclude their dependee's planted version). The
// end-to-end comparison with libsolv and resolvelib is bench/compare.py.
//
//===----------------------------------------------------------------------===//
#include "core/solver/PackageSolver.h"

#include <benchmark/benchmark.h>

#include <map>
#include <random>
#include <string>
#include <vector>

using namespace cudadeps;

namespace {

VersionSet range(unsigned Lo, unsigned Hi) {
  return VersionSet::between(Version({Lo}), Version({Hi}));
}

/// An in-memory registry with a planted solution.
class PlantedRegistry : public PackageProvider {
public:
  PlantedRegistry(unsigned N, unsigned V, unsigned Roots, unsigned Seed) {
    std::mt19937 Rng(Seed);
    auto Uniform = [&](unsigned Lo, unsigned Hi) {
      return std::uniform_int_distribution<unsigned>(Lo, Hi)(Rng);
    };
    std::vector<unsigned> Plant(N);
    for (unsigned &P : Plant)
      P = Uniform(1, V);
    Names.resize(N);
    for (unsigned I = 0; I < N; ++I)
      Names[I] = "p" + std::to_string(I);
    for (unsigned I = 0; I < N; ++I) {
      auto &Versions = Deps[Names[I]];
      for (unsigned Ver = 1; Ver <= V; ++Ver) {
        std::vector<std::pair<std::string, VersionSet>> On;
        std::vector<unsigned> Seen;
        unsigned K = Uniform(0, 3);
        for (unsigned D = 0; D < K; ++D) {
          unsigned T = Uniform(0, N - 1);
          if (T == I || std::find(Seen.begin(), Seen.end(), T) != Seen.end())
            continue;
          Seen.push_back(T);
          unsigned S = Plant[T];
          bool Trap = Ver != Plant[I] && D == 0 && Uniform(0, 2) == 0;
          if (Trap && S < V)
            On.emplace_back(Names[T], range(S + 1, V + 1));
          else if (Trap && S > 1)
            On.emplace_back(Names[T], range(1, S));
          else
            On.emplace_back(Names[T], range(Uniform(1, S), Uniform(S + 1, V + 1)));
        }
        Versions.emplace(Version({Ver}), PackageDependencies::available(On));
      }
    }
    std::vector<std::pair<std::string, VersionSet>> Root;
    for (unsigned R = 0; R < Roots; ++R) {
      unsigned T = Uniform(0, N - 1);
      unsigned S = Plant[T];
      if (none_of(Root.begin(), Root.end(),
                  [&](const auto &E) { return E.first == Names[T]; }))
        Root.emplace_back(Names[T], range(Uniform(1, S), Uniform(S + 1, V + 1)));
    }
    Deps["root"].emplace(Version({0}), PackageDependencies::available(Root));
  }

  std::vector<Version> versions(const std::string &P) override {
    std::vector<Version> Out;
    auto It = Deps.find(P);
    if (It != Deps.end())
      for (auto R = It->second.rbegin(); R != It->second.rend(); ++R)
        Out.push_back(R->first);
    return Out;
  }
  PackageDependencies dependencies(const std::string &P,
                                   const Version &V) override {
    auto It = Deps.find(P);
    if (It == Deps.end())
      return PackageDependencies::unavailable("no such package");
    auto D = It->second.find(V);
    if (D == It->second.end())
      return PackageDependencies::unavailable("no such version");
    return D->second;
  }

private:
  std::vector<std::string> Names;
  std::map<std::string, std::map<Version, PackageDependencies>> Deps;
};

void BM_VersionSetContains(benchmark::State &S) {
  VersionSet Set = range(3, 9).unionWith(range(12, 15));
  Version V({13});
  for (auto _ : S)
    benchmark::DoNotOptimize(Set.contains(V));
}
BENCHMARK(BM_VersionSetContains);

void BM_VersionSetIntersect(benchmark::State &S) {
  VersionSet A = range(3, 9).unionWith(range(12, 15));
  VersionSet B = range(5, 13);
  for (auto _ : S)
    benchmark::DoNotOptimize(A.intersect(B));
}
BENCHMARK(BM_VersionSetIntersect);

void BM_VersionSetSubset(benchmark::State &S) {
  VersionSet A = range(5, 7);
  VersionSet B = range(3, 9).unionWith(range(12, 15));
  for (auto _ : S)
    benchmark::DoNotOptimize(A.isSubsetOf(B));
}
BENCHMARK(BM_VersionSetSubset);

void BM_VersionSetComplement(benchmark::State &S) {
  VersionSet A = range(3, 9).unionWith(range(12, 15));
  for (auto _ : S)
    benchmark::DoNotOptimize(A.complement());
}
BENCHMARK(BM_VersionSetComplement);

/// Term::relation as propagation asks it: a decision against the negative
/// term of a dependency, and a derived range against a positive term.
void BM_TermRelation(benchmark::State &S) {
  PackageTerm Decision = PackageTerm::positive(VersionSet::exactly(Version({7})));
  PackageTerm Dependency = PackageTerm::negative(range(3, 9));
  PackageTerm Derived =
      PackageTerm::positive(range(1, 5).unionWith(range(8, 20)));
  PackageTerm Wanted = PackageTerm::positive(range(4, 12));
  for (auto _ : S) {
    benchmark::DoNotOptimize(Decision.relation(Dependency));
    benchmark::DoNotOptimize(Derived.relation(Wanted));
  }
}
BENCHMARK(BM_TermRelation);

void BM_Solve(benchmark::State &S) {
  PlantedRegistry R(S.range(0), 20, 50, 1);
  for (auto _ : S) {
    PackageSolveResult Result = solvePackages(R, "root", Version({0}));
    if (!Result.solved())
      S.SkipWithError("the planted registry has a solution");
    S.counters["incompatibilities"] = double(Result.IncompatibilityCount);
  }
}
BENCHMARK(BM_Solve)->Arg(200)->Arg(2000)->Unit(benchmark::kMillisecond);

/// The solve and then what `cudadeps resolve` asks after it: for every
/// package not at its newest version, whether a solution has the newest
/// (Solver::query on the same solver, at most 12 decisions each, as
/// resolve asks it). The difference to BM_Solve is the cost of the
/// explanations.
void BM_SolveAndExplain(benchmark::State &S) {
  PlantedRegistry R(S.range(0), 20, 50, 1);
  for (auto _ : S) {
    PackageSolver Solver(R, "root", Version({0}));
    PackageSolveResult Result = Solver.solve();
    if (!Result.solved()) {
      S.SkipWithError("the planted registry has a solution");
      break;
    }
    const std::map<std::string, Version> Sol = *Result.Solution;
    size_t Queries = 0, Failed = 0, Proved = 0;
    for (const auto &[Name, Ver] : Sol) {
      if (Name == "root" || Ver == Version({20}))
        continue;
      PackageSolveResult Why =
          Solver.query(Name, VersionSet::exactly(Version({20})), 12);
      ++Queries;
      Failed += Why.Failure ? 1 : 0;
      Proved += Why.solved() ? 1 : 0;
    }
    S.counters["queries"] = double(Queries);
    S.counters["explained"] = double(Failed);
    S.counters["proved"] = double(Proved);
  }
}
BENCHMARK(BM_SolveAndExplain)->Arg(200)->Arg(2000)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
