//===- LoadBench.cpp - micro-benchmarks of loading manifests and data -----===//
//
// Google Benchmark: loading a registry directory of N generated package
// manifests (the shape bench/problems.py writes: 20 releases, up to 3
// range requirements each), every manifest parsed or, warm, decoded from
// the load cache (Registry::all); and loading the shipped knowledge base
// (manifests/cuda).
//
//===----------------------------------------------------------------------===//
#include "core/manifest/KnowledgeBase.h"
#include "core/manifest/Registry.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <benchmark/benchmark.h>

#include <random>
#include <string>

using namespace cudadeps;

namespace {

/// A directory of \p N generated manifests (p0000.toml ...), written once
/// per size.
std::string generatedRegistry(unsigned N) {
  llvm::SmallString<128> Dir;
  if (llvm::sys::fs::createUniqueDirectory("cudadeps-loadbench", Dir))
    return "";
  std::mt19937 Rng(1);
  auto Uniform = [&](unsigned Lo, unsigned Hi) {
    return std::uniform_int_distribution<unsigned>(Lo, Hi)(Rng);
  };
  auto Name = [](unsigned I) {
    std::string S = std::to_string(I);
    return "p" + std::string(4 - std::min<size_t>(4, S.size()), '0') + S;
  };
  for (unsigned I = 0; I < N; ++I) {
    std::string Text = "schema = 1\n[package]\nname = \"" + Name(I) +
                       "\"\nsummary = \"generated\"\ngit = "
                       "\"https://example.invalid/" +
                       Name(I) +
                       ".git\"\ntag = \"v{version}\"\nbuild = \"python\"\n\n";
    for (unsigned V = 20; V >= 1; --V) {
      Text += "[[release]]\nversion = \"" + std::to_string(V) + ".0.0\"\n";
      unsigned Deps = Uniform(0, 3);
      if (Deps)
        Text += "[release.requires]\n";
      for (unsigned D = 0; D < Deps; ++D) {
        unsigned Lo = Uniform(1, 15), Hi = Uniform(Lo + 1, 21);
        // Distinct per release and never itself.
        unsigned Dep = (I + Uniform(1, N / 3 - 1) + D * (N / 3)) % N;
        Text += Name(Dep) + " = \">=" + std::to_string(Lo) +
                ".0.0,<" + std::to_string(Hi) + ".0.0\"\n";
      }
      Text += "\n";
    }
    llvm::SmallString<128> Path(Dir);
    llvm::sys::path::append(Path, Name(I) + ".toml");
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    OS << Text;
  }
  return std::string(Dir.str());
}

/// Arguments: the number of manifests, and 1 to load them from a warm load
/// cache (every manifest decoded) instead of parsing each.
void BM_LoadRegistry(benchmark::State &S) {
  std::string Dir = generatedRegistry(unsigned(S.range(0)));
  if (Dir.empty()) {
    S.SkipWithError("cannot create a temporary directory");
    return;
  }
  std::string CacheDir = S.range(1) ? Dir + "/.cache" : "";
  if (S.range(1) && !bool(Registry({Dir}, CacheDir).all()))
    S.SkipWithError("the generated registry does not load");
  for (auto _ : S) {
    Registry R({Dir}, CacheDir);
    llvm::Expected<std::vector<const Manifest *>> All = R.all();
    if (!All) {
      S.SkipWithError(llvm::toString(All.takeError()).c_str());
      break;
    }
    S.counters["manifests"] = double(All->size());
    S.counters["parsed"] = double(R.parsedCount());
  }
  llvm::sys::fs::remove_directories(Dir);
}
BENCHMARK(BM_LoadRegistry)
    ->ArgsProduct({{200, 2000}, {0, 1}})
    ->Unit(benchmark::kMillisecond);

/// Argument: 1 to load the tables from a warm load cache.
void BM_LoadKnowledgeBase(benchmark::State &S) {
  llvm::SmallString<128> Dir(CUDADEPS_SOURCE_DIR);
  llvm::sys::path::append(Dir, "manifests", "cuda");
  llvm::SmallString<128> CacheDir;
  if (S.range(0)) {
    if (llvm::sys::fs::createUniqueDirectory("cudadeps-loadbench", CacheDir) ||
        !bool(KnowledgeBase::loadDirectory(Dir, CacheDir))) {
      S.SkipWithError("cannot fill a load cache");
      return;
    }
  }
  for (auto _ : S) {
    llvm::Expected<KnowledgeBase> KB =
        KnowledgeBase::loadDirectory(Dir, CacheDir);
    if (!KB) {
      S.SkipWithError(llvm::toString(KB.takeError()).c_str());
      break;
    }
    benchmark::DoNotOptimize(KB->toolkits().size());
  }
  if (S.range(0))
    llvm::sys::fs::remove_directories(CacheDir);
}
BENCHMARK(BM_LoadKnowledgeBase)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

} // namespace
