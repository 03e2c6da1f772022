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

#include <climits>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

using namespace cudadeps;

namespace {

VersionSet range(unsigned Lo, unsigned Hi) {
  return VersionSet::between(Version({Lo}), Version({Hi}));
}

/// A registry held in memory: each package's versions with their
/// dependencies, newest preferred.
class MemoryRegistry : public PackageProvider {
public:
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

protected:
  std::vector<std::string> Names;
  std::map<std::string, std::map<Version, PackageDependencies>> Deps;
};

/// An in-memory registry with a planted solution.
class PlantedRegistry : public MemoryRegistry {
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
};

/// A registry whose planted versions are the only solution (bench/problems.py's
/// planted(..., unique=True)): every other version is a trap that needs a
/// non-planted version of a package with a lower index, and p0's other
/// versions need a version of p1 that does not exist.
class UniqueRegistry : public MemoryRegistry {
public:
  UniqueRegistry(unsigned N, unsigned V, unsigned Roots, unsigned Seed) {
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
        if (Ver == Plant[I]) {
          unsigned K = Uniform(0, 3);
          for (unsigned D = 0; D < K; ++D) {
            unsigned T = Uniform(0, N - 1);
            if (T == I || any_of(On.begin(), On.end(), [&](const auto &E) {
                  return E.first == Names[T];
                }))
              continue;
            unsigned S = Plant[T];
            On.emplace_back(Names[T],
                            range(Uniform(1, S), Uniform(S + 1, V + 1)));
          }
        } else if (I == 0) {
          On.emplace_back(Names[1 % N], range(V + 1, V + 1));
        } else {
          // A trap: besides up to two dependencies that allow their
          // targets' planted versions, one on a lower-indexed package
          // that excludes its planted version.
          unsigned T = Uniform(0, I - 1);
          unsigned K = Uniform(0, 2);
          for (unsigned D = 0; D < K; ++D) {
            unsigned U = Uniform(0, N - 1);
            if (U == I || U == T ||
                any_of(On.begin(), On.end(),
                       [&](const auto &E) { return E.first == Names[U]; }))
              continue;
            unsigned S = Plant[U];
            On.emplace_back(Names[U],
                            range(Uniform(1, S), Uniform(S + 1, V + 1)));
          }
          unsigned S = Plant[T];
          if (S == 1 || (S < V && Uniform(0, 1) == 0))
            On.emplace_back(Names[T], range(S + 1, V + 1));
          else
            On.emplace_back(Names[T], range(Uniform(1, S - 1), S));
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
    for (unsigned I = 0; I < N; ++I)
      Planted.emplace(Names[I], Version({Plant[I]}));
  }

  /// Whether Solution selects only planted versions.
  bool isPlanted(const std::map<std::string, Version> &Solution) const {
    for (const auto &[Name, Ver] : Solution)
      if (Name != "root" && !(Planted.at(Name) == Ver))
        return false;
    return true;
  }

private:
  std::map<std::string, Version> Planted;
};

void setWorkCounters(benchmark::State &S, const PackageSolveResult &R) {
  S.counters["incompatibilities"] = double(R.IncompatibilityCount);
  S.counters["decisions"] = double(R.Work.Decisions);
  S.counters["conflicts"] = double(R.Work.Conflicts);
  S.counters["learned"] = double(R.Work.Learned);
  S.counters["visits"] = double(R.Work.Visits);
  S.counters["backjumped"] = double(R.Work.Backjumped);
  S.counters["pruned"] = double(R.Work.Pruned);
}

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
    setWorkCounters(S, Result);
  }
}
BENCHMARK(BM_Solve)->Arg(200)->Arg(2000)->Unit(benchmark::kMillisecond);

/// A registry with one solution, every other version a trap: solved as the
/// solver does (pruning dead versions after 64 conflicts, or after 8 where
/// its backjumps have undone a fifth of its decisions: second argument 64)
/// and without pruning (0), side by side.
void BM_SolveUnique(benchmark::State &S) {
  UniqueRegistry R(S.range(0), 20, 50, 1);
  for (auto _ : S) {
    PackageSolver Solver(R, "root", Version({0}));
    Solver.setPruneAfter(S.range(1) ? unsigned(S.range(1)) : UINT_MAX);
    PackageSolveResult Result = Solver.solve();
    if (!Result.solved() || !R.isPlanted(*Result.Solution))
      S.SkipWithError("the registry's only solution is the planted one");
    setWorkCounters(S, Result);
  }
}
BENCHMARK(BM_SolveUnique)
    ->Args({200, 64})
    ->Args({200, 0})
    ->Args({2000, 64})
    ->Unit(benchmark::kMillisecond);

/// The solve and then "why not the newest?" queries on the same solver
/// (Solver::query, at most 12 decisions, without the solution), counted.
/// AsResolve: what `cudadeps resolve` asks (Resolver.cpp, "Not the newest
/// release from source: say why"): every package not at its newest, within
/// the root's range, except where another chosen version's dependency
/// excludes the newest (that dependency is the reason, and resolve prints
/// it without asking). Otherwise every package not at its newest, pinned or
/// not: the bound on what queries can cost. The difference to BM_Solve is
/// the cost of the explanations.
void solveAndAsk(benchmark::State &S, bool AsResolve) {
  PlantedRegistry R(S.range(0), 20, 50, 1);
  const VersionSet Newest = VersionSet::exactly(Version({20}));
  for (auto _ : S) {
    PackageSolver Solver(R, "root", Version({0}));
    PackageSolveResult Result = Solver.solve();
    if (!Result.solved()) {
      S.SkipWithError("the planted registry has a solution");
      break;
    }
    const std::map<std::string, Version> &Sol = *Result.Solution;
    // Per package: the root's range, and whether a chosen version of
    // another package excludes the newest.
    std::map<std::string, VersionSet> RootRange;
    std::set<std::string> Pinned;
    if (AsResolve)
      for (const auto &[Name, Ver] : Sol)
        for (const auto &[On, Set] : R.dependencies(Name, Ver).On) {
          if (Name == "root")
            RootRange.emplace(On, Set);
          else if (!Set.contains(Version({20})))
            Pinned.insert(On);
        }
    size_t Queries = 0, Failed = 0, Proved = 0;
    auto Ask = [&](const std::string &Name, const VersionSet &Want) {
      PackageSolveResult Why = Solver.query(Name, Want, 12, false);
      ++Queries;
      Failed += Why.Failure ? 1 : 0;
      Proved += Why.solved() ? 1 : 0;
    };
    for (const auto &[Name, Ver] : Sol) {
      if (Name == "root" || Ver == Version({20}))
        continue;
      auto Req = RootRange.find(Name);
      if (Req != RootRange.end())
        Ask(Name, Newest.intersect(Req->second));
      else if (!Pinned.count(Name))
        Ask(Name, Newest);
    }
    S.counters["queries"] = double(Queries);
    S.counters["explained"] = double(Failed);
    S.counters["proved"] = double(Proved);
  }
}

void BM_SolveAndExplain(benchmark::State &S) { solveAndAsk(S, true); }
BENCHMARK(BM_SolveAndExplain)->Arg(200)->Arg(2000)->Unit(benchmark::kMillisecond);

void BM_SolveAndQueryEvery(benchmark::State &S) { solveAndAsk(S, false); }
BENCHMARK(BM_SolveAndQueryEvery)->Arg(200)->Arg(2000)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
