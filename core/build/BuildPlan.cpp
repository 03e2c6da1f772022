#include "core/build/BuildPlan.h"

#include "core/manifest/Template.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace cudadeps {

static Expected<std::string> expandAt(const BuildEnvironment &Env,
                                      const Located &L, StringRef What) {
  Expected<std::string> V = Env.expand(L.Value);
  if (!V)
    return createStringError(inconvertibleErrorCode(), "%s:%u:%u: %s: %s",
                             L.Loc.File.c_str(), L.Loc.Line, L.Loc.Column,
                             What.str().c_str(),
                             toString(V.takeError()).c_str());
  return V;
}

Expected<std::vector<BuildStep>>
planBuildSteps(const Package &Pkg, const PackageResolution &PR,
               const BuildEnvironment &Env, const BuildPaths &Paths) {
  std::vector<BuildStep> Steps;
  switch (Pkg.Kind) {
  case BuildKind::TorchExtension:
  case BuildKind::Python: {
    if (Paths.Python.empty())
      return createStringError(inconvertibleErrorCode(),
                               "building %s needs a Python (the facts have "
                               "no [python])",
                               Pkg.Name.c_str());
    Steps.push_back({"wheel",
                     {Paths.Python, "-m", "pip", "wheel",
                      "--no-build-isolation", "--no-deps", "-v", Paths.Src,
                      "-w", Paths.Out},
                     Paths.Src});
    return Steps;
  }
  case BuildKind::CMake: {
    std::string BuildDir = Paths.Work + "/build";
    std::vector<std::string> Configure = {Paths.CMake, "-S", Paths.Src, "-B",
                                          BuildDir};
    if (!Paths.Ninja.empty()) {
      Configure.insert(Configure.end(),
                       {"-G", "Ninja", "-DCMAKE_MAKE_PROGRAM=" + Paths.Ninja});
    }
    Configure.push_back("-DCMAKE_BUILD_TYPE=Release");
    Configure.push_back("-DCMAKE_INSTALL_PREFIX=" + Paths.Out);
    if (PR.Nvcc)
      Configure.push_back("-DCMAKE_CUDA_COMPILER=" + PR.Nvcc->Path);
    if (PR.Compiler) {
      Configure.push_back("-DCMAKE_CUDA_HOST_COMPILER=" + PR.Compiler->Path);
      Configure.push_back("-DCMAKE_CXX_COMPILER=" + PR.Compiler->Path);
    }
    if (!PR.Archs.empty())
      Configure.push_back("-DCMAKE_CUDA_ARCHITECTURES=" +
                          archNumbers(PR.Archs));
    for (const Located &A : Pkg.Build.CMakeArgs) {
      Expected<std::string> V = expandAt(Env, A, "[build] cmake_args");
      if (!V)
        return V.takeError();
      Configure.push_back(*V);
    }
    Steps.push_back({"configure", std::move(Configure), Paths.Work});
    Steps.push_back({"compile",
                     {Paths.CMake, "--build", BuildDir, "--parallel",
                      std::to_string(Env.Jobs.Jobs)},
                     Paths.Work});
    Steps.push_back({"install",
                     {Paths.CMake, "--install", BuildDir, "--prefix",
                      Paths.Out},
                     Paths.Work});
    return Steps;
  }
  case BuildKind::Command: {
    BuildStep S{"command", {}, Paths.Src};
    for (const Located &A : Pkg.Build.Command) {
      Expected<std::string> V = expandAt(Env, A, "[build] command");
      if (!V)
        return V.takeError();
      S.Argv.push_back(*V);
    }
    if (S.Argv.empty() || S.Argv.front().empty())
      return createStringError(inconvertibleErrorCode(),
                               "%s has build = \"command\" and no command",
                               Pkg.Name.c_str());
    Steps.push_back(std::move(S));
    return Steps;
  }
  }
  llvm_unreachable("unknown build kind");
}

/// True when a template of the recipe hands the arch list to the build.
static bool recipeTakesArchs(const Package &Pkg) {
  auto Uses = [](const Located &L) {
    for (const std::string &P : placeholdersIn(L.Value))
      if (P == "archs" || P == "gencode" || P == "torch_arch_list" ||
          P == "arch_numbers")
        return true;
    return false;
  };
  for (const auto &[Name, L] : Pkg.Build.Env)
    if (Uses(L))
      return true;
  return any_of(Pkg.Build.Command, Uses) || any_of(Pkg.Build.CMakeArgs, Uses);
}

ArchChoice chooseArchs(const Package &Pkg, const PackageResolution &PR) {
  ArchChoice C;
  C.Compiled = PR.Archs;
  const Release *Rel = PR.Ver ? Pkg.findRelease(*PR.Ver) : nullptr;
  if (Rel) {
    for (const Arch &A : Rel->Archs) {
      bool Supported = !PR.Nvcc || PR.Nvcc->Archs.empty() ||
                       is_contained(PR.Nvcc->Archs, A.Name);
      if (Supported)
        C.Full.push_back(A.Name);
    }
  }
  C.Selectable = Pkg.Kind == BuildKind::CMake ||
                 Pkg.Kind == BuildKind::Command || recipeTakesArchs(Pkg);
  if (!C.Selectable && !C.Full.empty())
    C.Compiled = C.Full;
  if (!C.Full.empty() && !C.Compiled.empty())
    C.Saved = 1.0 - double(std::min(C.Compiled.size(), C.Full.size())) /
                        double(C.Full.size());
  std::string List = C.Compiled.empty() ? "none" : join(C.Compiled, ", ");
  if (!C.Selectable) {
    C.Note = List + ": " + Pkg.Name +
             " hard-codes its arch list (TORCH_CUDA_ARCH_LIST is ignored)";
    if (!PR.Archs.empty() && C.Full.size() > PR.Archs.size())
      C.Note += formatv(", so it compiles {0} archs where {1} would do "
                        "(about {2}x the compile time)",
                        C.Full.size(), PR.Archs.size(),
                        (C.Full.size() + PR.Archs.size() / 2) /
                            PR.Archs.size())
                    .str();
    return C;
  }
  C.Note = List;
  if (C.Saved)
    C.Note += formatv(" of {0} release arch{1} (about {2}% of the full "
                      "build saved)",
                      C.Full.size(), C.Full.size() == 1 ? "" : "s",
                      int(*C.Saved * 100 + 0.5))
                  .str();
  return C;
}

} // namespace cudadeps
