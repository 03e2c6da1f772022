//===- MachineFacts.cpp - what this machine has, the one entry point ------===//

#include "core/plugin/MachineFacts.h"

#include "core/facts/FactsFile.h"
#include "core/facts/Overrides.h"
#include "core/plugin/ProbeCache.h"

#include "llvm/ADT/STLExtras.h"

#include <spdlog/spdlog.h>

using namespace llvm;

namespace cudadeps {

ProbeSet collectProbes(ArrayRef<ProbeFactory> Builtins,
                       const PluginSearchPath &Search) {
  ProbeSet Set;
  for (ProbeFactory Make : Builtins)
    if (std::unique_ptr<Probe> P = Make())
      Set.Probes.push_back(std::move(P));
  ExternalPlugins External = loadPlugins(Search);
  Set.Failures = std::move(External.Failures);
  for (std::unique_ptr<Probe> &P : External.Probes) {
    auto Same = find_if(Set.Probes,
                        [&](const auto &Q) { return Q->name() == P->name(); });
    if (Same != Set.Probes.end()) {
      spdlog::debug("plugin {} from {} replaces the built-in probe",
                    P->name(), P->origin());
      *Same = std::move(P);
      continue;
    }
    Set.Probes.push_back(std::move(P));
  }
  return Set;
}

static Expected<MachineFacts> probeMachine(const GatherOptions &Opts) {
  PluginSearchPath Search;
  Search.CommandLine = Opts.PluginPaths;
  Search.EnvPath = Opts.Env.get("CUDADEPS_PLUGIN_PATH");
  Search.InstalledDir = Opts.InstalledPluginDir;
  ProbeSet Set = collectProbes(Opts.Builtins, Search);

  std::string CacheDir = Opts.CacheDir.empty()
                             ? ProbeCache::defaultDir(Opts.Env)
                             : Opts.CacheDir;
  std::optional<ProbeCache> Cache;
  if (CacheDir != "-" && !CacheDir.empty())
    Cache.emplace(CacheDir);

  ProbeContext Ctx{Opts.Env, Opts.Runner, Opts.CommandTimeout, Opts.SysRoot};
  if (Opts.ProbeDeadline.count() > 0)
    Ctx.Deadline = std::chrono::steady_clock::now() + Opts.ProbeDeadline;
  ProbeRunOptions RunOpts;
  RunOpts.Cache = Cache ? &*Cache : nullptr;
  RunOpts.Refresh = Opts.Refresh;
  std::vector<Probe *> Probes;
  for (const auto &P : Set.Probes)
    Probes.push_back(P.get());
  ProbeRun Run = runProbes(Probes, Ctx, RunOpts);

  MachineFacts M;
  M.F = std::move(Run.Merged);
  M.Reports = std::move(Run.Reports);
  M.PluginFailures = std::move(Set.Failures);
  return M;
}

Expected<MachineFacts> gatherFacts(const GatherOptions &Opts) {
  std::optional<std::string> File = Opts.FactsFile;
  if (!File)
    if (auto FromEnv = Opts.Env.get("CUDADEPS_FACTS"); FromEnv && !FromEnv->empty())
      File = *FromEnv;

  MachineFacts M;
  if (File) {
    Expected<Facts> F = readFactsFile(*File);
    if (!F)
      return F.takeError();
    M.F = std::move(*F);
    M.FactsFile = *File;
  } else {
    Expected<MachineFacts> Probed = probeMachine(Opts);
    if (!Probed)
      return Probed.takeError();
    M = std::move(*Probed);
  }
  std::vector<NvccFacts> Before = M.F.Nvccs;
  if (Error E = applyOverrides(M.F, Opts.Overrides))
    return E;
  if (M.F.Nvccs.empty())
    M.NvccsRemoved = std::move(Before);
  return M;
}

static std::string majorOf(const Version &V) {
  return std::to_string(V.major());
}

static std::string nvccList(const Facts &F) {
  std::string Out;
  for (const NvccFacts &N : F.Nvccs)
    Out += (Out.empty() ? "" : ", ") + N.Ver.str() + " at " + N.Path;
  return Out;
}

std::vector<std::string> findInconsistencies(const Facts &F) {
  std::vector<std::string> Out;
  if (F.Torch && F.Torch->Cuda) {
    const Version &TC = *F.Torch->Cuda;
    std::string Torch =
        "torch " + F.Torch->Ver.str() + " was built for CUDA " + TC.str();
    if (F.Nvccs.empty())
      Out.push_back(Torch + " but no nvcc was found: CUDA extensions for it "
                            "cannot be compiled here");
    else if (none_of(F.Nvccs, [&](const NvccFacts &N) {
               return N.Ver.major() == TC.major();
             }))
      Out.push_back(Torch + " but no nvcc " + majorOf(TC) +
                    ".x was found (found: " + nvccList(F) +
                    "); torch rejects extensions built with another CUDA major");
    if (F.Driver && F.Driver->Cuda && *F.Driver->Cuda < TC.truncated(2))
      Out.push_back("the driver supports CUDA up to " + F.Driver->Cuda->str() +
                    ", older than the CUDA " + TC.str() + " torch " +
                    F.Torch->Ver.str() + " was built for");
  }
  if (F.Torch && F.Torch->CudaUnknown)
    Out.push_back("torch " + F.Torch->Ver.str() +
                  " names no CUDA version (no torch.cuda and no +cuXYZ or "
                  "+cpu label): whether it is a CUDA build is unknown");
  if (F.Torch && !F.Torch->Cxx11Abi)
    Out.push_back("the C++ ABI (_GLIBCXX_USE_CXX11_ABI) of torch " +
                  F.Torch->Ver.str() +
                  " is unknown: no prebuilt extension wheel named for an ABI "
                  "(cxx11abiTRUE/FALSE) can be chosen");
  if (F.Driver && F.Driver->Cuda)
    for (const NvccFacts &N : F.Nvccs)
      if (F.Driver->Cuda->major() < N.Ver.major())
        Out.push_back("the driver supports CUDA up to " +
                      F.Driver->Cuda->str() + ", older than nvcc " +
                      N.Ver.str() + " at " + N.Path +
                      ": code it builds may not run on this driver");
  if (!F.Nvccs.empty() && F.Compilers.empty())
    Out.push_back("nvcc was found but no host C++ compiler (g++ or clang++) "
                  "for it to use");
  for (const GpuFacts &G : F.Gpus) {
    std::string Arch = G.smArch();
    bool AnyKnown = false, AnySupports = false;
    for (const NvccFacts &N : F.Nvccs) {
      if (N.Archs.empty())
        continue;
      AnyKnown = true;
      AnySupports |= is_contained(N.Archs, Arch);
    }
    std::string Msg = "no nvcc found can compile for the GPU " + G.Name +
                      " (" + Arch + ")";
    if (AnyKnown && !AnySupports && !is_contained(Out, Msg))
      Out.push_back(std::move(Msg));
  }
  return Out;
}

} // namespace cudadeps
