#include "core/plan/BuildEnvironment.h"

#include "core/manifest/Template.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

#include <cmath>

using namespace llvm;

namespace cudadeps {

/// "sm_90a" -> ("90", "a"); "sm_100f" -> ("100", "f").
static std::pair<std::string, std::string> splitArch(StringRef Arch) {
  StringRef Digits = Arch;
  Digits.consume_front("sm_");
  std::string Suffix;
  if (!Digits.empty() && !isDigit(Digits.back())) {
    Suffix = Digits.back();
    Digits = Digits.drop_back();
  }
  return {Digits.str(), Suffix};
}

std::string torchArchList(ArrayRef<std::string> Archs) {
  std::vector<std::string> Out;
  for (const std::string &A : Archs) {
    auto [Digits, Suffix] = splitArch(A);
    if (Digits.size() < 2)
      continue;
    Out.push_back(Digits.substr(0, Digits.size() - 1) + "." + Digits.back() +
                  Suffix);
  }
  return join(Out, ";");
}

std::string archNumbers(ArrayRef<std::string> Archs) {
  std::vector<std::string> Out;
  for (const std::string &A : Archs) {
    auto [Digits, Suffix] = splitArch(A);
    Out.push_back(Digits + Suffix);
  }
  return join(Out, ";");
}

std::string gencodeFlags(ArrayRef<std::string> Archs) {
  std::vector<std::string> Out;
  for (const std::string &A : Archs) {
    auto [Digits, Suffix] = splitArch(A);
    Out.push_back("-gencode arch=compute_" + Digits + Suffix + ",code=sm_" +
                  Digits + Suffix);
  }
  return join(Out, " ");
}

std::string toolkitRoot(StringRef NvccPath) {
  StringRef Bin = sys::path::parent_path(NvccPath);
  StringRef Root = sys::path::parent_path(Bin);
  return Root.empty() ? Bin.str() : Root.str();
}

JobsDecision sizeJobs(std::optional<unsigned> Cpus,
                      std::optional<double> MemoryGib, double PerJobGib) {
  JobsDecision D;
  unsigned Jobs = Cpus && *Cpus > 0 ? *Cpus : 0;
  std::vector<std::string> Why;
  if (Cpus)
    Why.push_back(formatv("{0} CPU{1}", *Cpus, *Cpus == 1 ? "" : "s").str());
  else
    Why.push_back("CPU count unknown");
  if (MemoryGib && PerJobGib > 0) {
    double Fit = std::floor(*MemoryGib / PerJobGib);
    unsigned ByMemory = Fit < 1 ? 1 : Fit > 4096 ? 4096 : unsigned(Fit);
    Jobs = Jobs == 0 ? ByMemory : std::min(Jobs, ByMemory);
    std::string PerJob = PerJobGib == std::floor(PerJobGib)
                             ? std::to_string(int64_t(PerJobGib))
                             : formatv("{0:f1}", PerJobGib).str();
    Why.push_back(formatv("{0:f1} GiB memory / {1} GiB per job", *MemoryGib,
                          PerJob)
                      .str());
  } else {
    Why.push_back("memory size unknown");
  }
  D.Jobs = Jobs == 0 ? 1 : Jobs;
  D.Reason = join(Why, ", ");
  return D;
}

namespace {

/// Builds the variable list layer by layer.
class VarList {
public:
  void set(StringRef Name, StringRef Value, StringRef Origin,
           bool Prepend = false) {
    for (BuildVar &V : Vars)
      if (V.Name == Name) {
        V.Value = Value.str();
        V.Origin = Origin.str();
        V.Prepend = Prepend;
        return;
      }
    Vars.push_back({Name.str(), Value.str(), Origin.str(), Prepend});
  }
  std::vector<BuildVar> take() { return std::move(Vars); }

private:
  std::vector<BuildVar> Vars;
};

} // namespace

/// The C driver beside a C++ one: g++-13 -> gcc-13, clang++ -> clang;
/// empty when there is none.
static std::string cDriverFor(StringRef Cxx) {
  StringRef Dir = sys::path::parent_path(Cxx);
  StringRef Name = sys::path::filename(Cxx);
  std::string C;
  if (size_t P = Name.find("g++"); P != StringRef::npos)
    C = (Name.substr(0, P) + "gcc" + Name.substr(P + 3)).str();
  else if (size_t P = Name.find("clang++"); P != StringRef::npos)
    C = (Name.substr(0, P) + "clang" + Name.substr(P + 7)).str();
  else
    return {};
  SmallString<256> Full(Dir);
  sys::path::append(Full, C);
  return sys::fs::can_execute(Full) ? std::string(Full) : std::string();
}

static std::map<std::string, std::string>
placeholdersFor(const Package &Pkg, const PackageResolution &PR,
                const Facts &F, const BuildEnvironmentOptions &Opts,
                unsigned Jobs) {
  std::map<std::string, std::string> P;
  if (PR.Ver) {
    const Release *Rel = Pkg.findRelease(*PR.Ver);
    P["version"] = Rel ? Rel->VersionText : PR.Ver->str();
  }
  if (!Opts.SrcDir.empty())
    P["src"] = Opts.SrcDir;
  if (!Opts.OutDir.empty())
    P["out"] = Opts.OutDir;
  if (PR.Nvcc) {
    P["nvcc"] = PR.Nvcc->Path;
    P["cuda_home"] = toolkitRoot(PR.Nvcc->Path);
  }
  if (PR.Compiler)
    P["cxx"] = PR.Compiler->Path;
  P["jobs"] = std::to_string(Jobs);
  if (!PR.Archs.empty()) {
    P["archs"] = join(PR.Archs, ";");
    P["arch_numbers"] = archNumbers(PR.Archs);
    P["gencode"] = gencodeFlags(PR.Archs);
    P["torch_arch_list"] = torchArchList(PR.Archs);
  }
  if (F.Python) {
    P["python"] = F.Python->Path;
    P["python.tag"] = F.Python->tag();
  }
  if (F.Torch) {
    P["torch.major_minor"] = std::to_string(F.Torch->Ver.major()) + "." +
                             std::to_string(F.Torch->Ver.minor());
    if (F.Torch->Cuda)
      P["torch.cuda_major"] = std::to_string(F.Torch->Cuda->major());
    if (F.Torch->Cxx11Abi)
      P["torch.cxx11_abi_upper"] = *F.Torch->Cxx11Abi ? "TRUE" : "FALSE";
  }
  if (F.Platform)
    P["platform.tag"] = F.Platform->tag();
  return P;
}

static std::string where(const SourceLocation &L) {
  if (L.File.empty())
    return "the manifest";
  return formatv("{0}:{1}:{2}", L.File, L.Line, L.Column).str();
}

Expected<BuildEnvironment>
computeBuildEnvironment(const Package &Pkg, const PackageResolution &PR,
                        const Facts &F, const BuildEnvironmentOptions &Opts) {
  BuildEnvironment BE;
  double PerJob = Pkg.Build.MemoryPerJobGib.value_or(DefaultMemoryPerJobGib);
  if (Opts.Jobs) {
    BE.Jobs.Jobs = std::max(1u, *Opts.Jobs);
    BE.Jobs.Reason = "--jobs " + std::to_string(BE.Jobs.Jobs);
  } else {
    BE.Jobs = sizeJobs(F.Platform ? F.Platform->Cpus : std::nullopt,
                       F.Platform ? F.Platform->MemoryGib : std::nullopt,
                       PerJob);
  }
  BE.Placeholders = placeholdersFor(Pkg, PR, F, Opts, BE.Jobs.Jobs);

  VarList L;
  if (PR.Nvcc) {
    std::string Root = toolkitRoot(PR.Nvcc->Path);
    std::string Origin = "the chosen nvcc " + PR.Nvcc->Ver.str();
    L.set("CUDA_HOME", Root, Origin);
    L.set("CUDA_PATH", Root, Origin);
    L.set("PATH", sys::path::parent_path(PR.Nvcc->Path), Origin,
          /*Prepend=*/true);
  }
  if (PR.Compiler) {
    std::string Origin = "the chosen host compiler " + PR.Compiler->Family +
                         " " + PR.Compiler->Ver.str();
    std::string C = cDriverFor(PR.Compiler->Path);
    L.set("CC", C.empty() ? PR.Compiler->Path : C, Origin);
    L.set("CXX", PR.Compiler->Path, Origin);
    L.set("CUDAHOSTCXX", PR.Compiler->Path, Origin);
    L.set("NVCC_CCBIN", PR.Compiler->Path, Origin);
  }
  if (!PR.Archs.empty()) {
    std::string Origin = "the archs compiled (" + join(PR.Archs, ", ") + ")";
    L.set("TORCH_CUDA_ARCH_LIST", torchArchList(PR.Archs), Origin);
    L.set("CUDAARCHS", archNumbers(PR.Archs), Origin);
  }
  std::string Jobs = std::to_string(BE.Jobs.Jobs);
  L.set("MAX_JOBS", Jobs, BE.Jobs.Reason);
  L.set("CMAKE_BUILD_PARALLEL_LEVEL", Jobs, BE.Jobs.Reason);
  if (!Opts.Launcher.empty()) {
    std::string Origin = "the compiler launcher";
    if (Pkg.Kind == BuildKind::CMake || Pkg.Kind == BuildKind::Command) {
      for (StringRef Lang : {"C", "CXX", "CUDA"})
        L.set(("CMAKE_" + Lang + "_COMPILER_LAUNCHER").str(), Opts.Launcher,
              Origin);
    }
    if (Pkg.Kind == BuildKind::TorchExtension && PR.Nvcc)
      L.set("PYTORCH_NVCC", Opts.Launcher + " " + PR.Nvcc->Path, Origin);
  }
  for (const auto &[Name, Tmpl] : Pkg.Build.Env) {
    Expected<std::string> V = BE.expand(Tmpl.Value);
    if (!V)
      return createStringError(inconvertibleErrorCode(),
                               "%s: [build.env] %s: %s",
                               where(Tmpl.Loc).c_str(), Name.c_str(),
                               toString(V.takeError()).c_str());
    L.set(Name, *V, "[build.env] at " + where(Tmpl.Loc));
  }
  for (const auto &[Name, Value] : Opts.Overrides)
    L.set(Name, Value, "override");
  BE.Vars = L.take();
  return BE;
}

const BuildVar *BuildEnvironment::find(StringRef Name) const {
  for (const BuildVar &V : Vars)
    if (V.Name == Name)
      return &V;
  return nullptr;
}

std::map<std::string, std::string>
BuildEnvironment::applyTo(std::map<std::string, std::string> Base) const {
  for (const BuildVar &V : Vars) {
    if (!V.Prepend) {
      Base[V.Name] = V.Value;
      continue;
    }
    auto It = Base.find(V.Name);
    if (It == Base.end() || It->second.empty())
      Base[V.Name] = V.Value;
    else
      It->second = V.Value + ":" + It->second;
  }
  return Base;
}

Expected<std::string> BuildEnvironment::expand(StringRef Template) const {
  return expandTemplate(Template,
                        [&](StringRef Name) -> std::optional<std::string> {
                          auto It = Placeholders.find(Name.str());
                          if (It == Placeholders.end())
                            return std::nullopt;
                          return It->second;
                        });
}

} // namespace cudadeps
