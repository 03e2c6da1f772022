//===- Resolver.cpp - manifests + machine facts -> PubGrub -> decisions -----===//
#include "core/plan/Resolver.h"

#include "core/manifest/Template.h"
#include "core/solver/PackageSolver.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <map>
#include <set>

using namespace llvm;

namespace cudadeps {

StringRef strategyName(Strategy S) {
  switch (S) {
  case Strategy::Source:
    return "source";
  case Strategy::Prebuilt:
    return "prebuilt";
  case Strategy::NoBuild:
    return "no-build";
  case Strategy::Fallback:
    return "fallback";
  case Strategy::Unsatisfiable:
    return "unsatisfiable";
  }
  llvm_unreachable("bad strategy");
}

StringRef statusName(ResolveStatus S) {
  switch (S) {
  case ResolveStatus::Resolved:
    return "resolved";
  case ResolveStatus::Fallback:
    return "fallback";
  case ResolveStatus::Unsatisfiable:
    return "unsatisfiable";
  }
  llvm_unreachable("bad status");
}

const PackageResolution *Resolution::find(StringRef Name) const {
  for (const PackageResolution &P : Packages)
    if (P.Name == Name)
      return &P;
  return nullptr;
}

namespace {


using Deps = solver::Dependencies<std::string, VersionSet>;
using TermT = solver::Term<VersionSet>;

// Solver-level package names of machine facts.
constexpr StringLiteral NvccPkg = "nvcc";
constexpr StringLiteral CompilerPkg = "host-compiler";

// The build strategy of a manifest package version is its epoch.
constexpr uint64_t PrebuiltEpoch = 0;
constexpr uint64_t SourceEpoch = 1;
// Host compiler families are epochs of host-compiler.
constexpr uint64_t GccEpoch = 0;
constexpr uint64_t ClangEpoch = 1;

Version epochStart(uint64_t E) {
  return Version({0}).withEpoch(E).lowestOfRelease();
}

VersionSet epochRange(uint64_t E) {
  return VersionSet::between(epochStart(E), epochStart(E + 1));
}

/// The same set with every version moved into epoch E (R must be epoch 0).
VersionSet lift(const VersionSet &R, uint64_t E) {
  VersionSet Out;
  for (const Interval &I : R.intervals()) {
    VersionSet Lo = !I.Lower.Value ? VersionSet::atLeast(epochStart(E))
                    : I.Lower.Inclusive
                        ? VersionSet::atLeast(I.Lower.Value->withEpoch(E))
                        : VersionSet::greaterThan(I.Lower.Value->withEpoch(E));
    VersionSet Hi = !I.Upper.Value ? VersionSet::lessThan(epochStart(E + 1))
                    : I.Upper.Inclusive
                        ? VersionSet::atMost(I.Upper.Value->withEpoch(E))
                        : VersionSet::lessThan(I.Upper.Value->withEpoch(E));
    Out = Out.unionWith(Lo.intersect(Hi));
  }
  return Out.intersect(epochRange(E));
}

/// The part of S in epoch E, moved back to epoch 0.
VersionSet project(const VersionSet &S, uint64_t E) {
  VersionSet Out;
  Version Start = epochStart(E), End = epochStart(E + 1);
  for (const Interval &I : S.intersect(epochRange(E)).intervals()) {
    VersionSet Lo = (!I.Lower.Value || *I.Lower.Value == Start)
                        ? VersionSet::any()
                    : I.Lower.Inclusive
                        ? VersionSet::atLeast(I.Lower.Value->withEpoch(0))
                        : VersionSet::greaterThan(I.Lower.Value->withEpoch(0));
    VersionSet Hi = (!I.Upper.Value || *I.Upper.Value == End)
                        ? VersionSet::any()
                    : I.Upper.Inclusive
                        ? VersionSet::atMost(I.Upper.Value->withEpoch(0))
                        : VersionSet::lessThan(I.Upper.Value->withEpoch(0));
    Out = Out.unionWith(Lo.intersect(Hi));
  }
  return Out;
}

/// "<= N" over a major version: everything below N+1.
VersionSet upToMajor(unsigned N) {
  return VersionSet::lessThan(Version({uint64_t(N) + 1}).lowestOfRelease());
}

VersionSet sameMajor(uint64_t M) {
  return VersionSet::between(Version({M}).lowestOfRelease(),
                             Version({M + 1}).lowestOfRelease());
}

std::string majorMinor(const Version &V) {
  return formatv("{0}.{1}", V.major(), V.minor()).str();
}

/// What the machine offers for a fixed fact package, or nullopt.
struct FixedFact {
  std::optional<Version> Ver;
  std::string Absent; // wording when absent
};

class Provider : public PackageProvider {
public:
  Provider(const ResolveRequest &Req, const PackageLookup &Lookup,
           const Facts &F, const KnowledgeBase &KB,
           std::vector<std::string> Targets)
      : Req(Req), Lookup(Lookup), F(F), KB(KB), Targets(std::move(Targets)) {
    for (const NvccFacts &N : F.Nvccs)
      if (none_of(Toolkits, [&](const NvccFacts *T) { return T->Ver == N.Ver; }))
        Toolkits.push_back(&N);
    stable_sort(Toolkits, [](const NvccFacts *A, const NvccFacts *B) {
      return B->Ver < A->Ver;
    });
    for (const CompilerFacts &C : F.Compilers) {
      Version V = compilerVersion(C);
      if (none_of(Compilers, [&](const auto &E) { return E.first == V; }))
        Compilers.emplace_back(V, &C);
    }
    // gcc before clang, newest first within a family.
    stable_sort(Compilers, [](const auto &A, const auto &B) {
      if (A.first.epoch() != B.first.epoch())
        return A.first.epoch() < B.first.epoch();
      return B.first < A.first;
    });
  }

  /// Replaces the root's requirement on a package by a solver-level set
  /// (used to ask "why not the newest release from source?").
  void pinRoot(const std::string &Package, VersionSet Set) {
    RootPins[Package] = std::move(Set);
  }

  // The root's requirements, in solver terms.
  std::vector<std::pair<std::string, VersionSet>> rootDeps() const {
    std::vector<std::pair<std::string, VersionSet>> Out;
    for (const auto &[Key, R] : Req.Requires) {
      auto Dep = mapRequirement(Key, R.Range);
      auto Pin = RootPins.find(Key);
      if (Pin != RootPins.end())
        Dep.second = Dep.second.intersect(Pin->second);
      Out.push_back(std::move(Dep));
    }
    return Out;
  }

  std::vector<Version> versions(const std::string &P) override {
    if (P == Req.RootName)
      return {Version({0})};
    if (P == NvccPkg) {
      std::vector<Version> Out;
      for (const NvccFacts *T : Toolkits)
        Out.push_back(T->Ver);
      return Out;
    }
    if (P == CompilerPkg) {
      std::vector<Version> Out;
      for (const auto &C : Compilers)
        Out.push_back(C.first);
      return Out;
    }
    if (const Package *Pkg = Lookup(P)) {
      std::vector<const Release *> Rs;
      for (const Release &R : Pkg->Releases)
        Rs.push_back(&R);
      stable_sort(Rs, [](const Release *A, const Release *B) {
        return B->Ver < A->Ver;
      });
      std::vector<Version> Out;
      for (const Release *R : Rs) {
        Out.push_back(R->Ver.withEpoch(SourceEpoch));
        if (R->Prebuilt && Pkg->Kind != BuildKind::Python)
          Out.push_back(R->Ver.withEpoch(PrebuiltEpoch));
      }
      return Out;
    }
    FixedFact FF = fixedFact(P);
    if (FF.Ver)
      return {*FF.Ver};
    return {};
  }

  PackageDependencies dependencies(const std::string &P,
                                   const Version &V) override {
    if (P == Req.RootName)
      return PackageDependencies::available(rootDeps());
    const Package *Pkg = Lookup(P);
    if (!Pkg)
      return PackageDependencies::available({});
    const Release *Rel = Pkg->findRelease(V.withEpoch(0));
    if (!Rel)
      return PackageDependencies::unavailable("no such release");
    bool Compiles = Pkg->Kind != BuildKind::Python;
    RequirementMap Reqs = Pkg->requirementsFor(*Rel);
    std::vector<std::pair<std::string, VersionSet>> On;
    if (V.epoch() == PrebuiltEpoch) {
      std::string Why = prebuiltMismatch(*Pkg, *Rel);
      if (!Why.empty())
        return PackageDependencies::unavailable(Why);
      for (const auto &[Key, R] : Reqs)
        if (Key != "nvcc" && Key != "gcc" && Key != "clang")
          On.push_back(mapRequirement(Key, R.Range));
      return PackageDependencies::available(std::move(On));
    }
    if (Compiles && !Targets.empty() && !Rel->Archs.empty()) {
      std::vector<std::string> Common = intersectArchs(Targets, *Rel);
      if (Common.empty())
        return PackageDependencies::unavailable(
            formatv("{0} {1} compiles none of the target archs ({2})",
                    Pkg->Name, Rel->VersionText, join(Targets, ", "))
                .str());
    }
    bool HasNvcc = false, HasCompiler = false;
    for (const auto &[Key, R] : Reqs) {
      if (!Compiles && (Key == "nvcc" || Key == "gcc" || Key == "clang"))
        continue;
      auto Dep = mapRequirement(Key, R.Range);
      HasNvcc |= Dep.first == NvccPkg;
      if (Dep.first == CompilerPkg) {
        if (HasCompiler) {
          // gcc and clang requirements together: either family.
          for (auto &E : On)
            if (E.first == CompilerPkg)
              E.second = E.second.unionWith(Dep.second);
          continue;
        }
        HasCompiler = true;
      }
      On.push_back(std::move(Dep));
    }
    if (Compiles && !HasNvcc)
      On.emplace_back(NvccPkg.str(), VersionSet::any());
    if (Compiles && !HasCompiler)
      On.emplace_back(CompilerPkg.str(), VersionSet::any());
    return PackageDependencies::available(std::move(On));
  }

  std::vector<SolverFact> facts(const std::string &P) override {
    std::vector<SolverFact> Out;
    if (P == NvccPkg) {
      nvccFacts(Out);
    } else if (P == CompilerPkg) {
      if (Compilers.empty())
        Out.push_back(fact({{P, TermT::positive(VersionSet::any())}},
                           "no host C++ compiler (g++ or clang++) was found",
                           {"install a host compiler nvcc supports, e.g. "
                            "`apt install g++`"}));
    } else if (const Package *Pkg = Lookup(P)) {
      packageFacts(*Pkg, Out);
    } else if (P != Req.RootName) {
      FixedFact FF = fixedFact(P);
      if (!FF.Ver)
        Out.push_back(fact({{P, TermT::positive(VersionSet::any())}},
                           FF.Absent, {}));
    }
    for (const SolverFact &SF : Out)
      AllFacts.push_back(SF);
    return Out;
  }

  // --- queries used after solving ---------------------------------------

  const NvccFacts *toolkit(const Version &V) const {
    for (const NvccFacts *T : Toolkits)
      if (T->Ver == V)
        return T;
    return nullptr;
  }
  const CompilerFacts *compiler(const Version &V) const {
    for (const auto &C : Compilers)
      if (C.first == V)
        return C.second;
    return nullptr;
  }
  const std::vector<const NvccFacts *> &toolkits() const { return Toolkits; }
  const std::vector<std::pair<Version, const CompilerFacts *>> &
  compilers() const {
    return Compilers;
  }
  const std::vector<SolverFact> &allFacts() const { return AllFacts; }
  bool isManifestPackage(const std::string &P) const { return Lookup(P); }

  /// "the toolkits found are 12.1.105 (/usr/local/cuda-12.1/bin/nvcc), ..."
  std::string describeCandidates(StringRef P) const {
    std::vector<std::string> Items;
    if (P == NvccPkg)
      for (const NvccFacts *T : Toolkits)
        Items.push_back(T->Ver.str() + " (" + T->Path + ")");
    else
      for (const auto &C : Compilers)
        Items.push_back(C.second->Family + " " + C.second->Ver.str() + " (" +
                        C.second->Path + ")");
    StringRef What = P == NvccPkg ? "toolkit" : "host compiler";
    if (Items.size() == 1)
      return ("the only " + What + " found is " + Items.front()).str();
    return ("the " + What + "s found are " + join(Items, ", ")).str();
  }
  const std::vector<std::string> &hintsFor(const std::string &Text) const {
    static const std::vector<std::string> None;
    auto It = Hints.find(Text);
    return It == Hints.end() ? None : It->second;
  }

  /// The archs a build compiles: target ∩ release ∩ what nvcc supports.
  std::vector<std::string> archsFor(const Release &Rel,
                                    const NvccFacts *Nvcc) const {
    std::vector<std::string> Candidates;
    if (!Targets.empty())
      Candidates = Rel.Archs.empty() ? Targets : intersectArchs(Targets, Rel);
    else
      for (const Arch &A : Rel.Archs)
        Candidates.push_back(A.Name);
    std::vector<std::string> Out;
    for (const std::string &A : Candidates)
      if (!Nvcc || nvccSupports(*Nvcc, A))
        Out.push_back(A);
    return Out;
  }

  std::optional<std::string> prebuiltUrl(const Package &Pkg,
                                         const Release &Rel) const {
    if (!Pkg.PrebuiltUrl)
      return std::nullopt;
    auto Url = expandTemplate(Pkg.PrebuiltUrl->Value, [&](StringRef Name)
                                  -> std::optional<std::string> {
      if (Name == "version")
        return Rel.VersionText;
      if (Name == "torch.cuda_major" && F.Torch && F.Torch->Cuda)
        return std::to_string(F.Torch->Cuda->major());
      if (Name == "torch.major_minor" && F.Torch)
        return majorMinor(F.Torch->Ver);
      if (Name == "torch.cxx11_abi_upper" && F.Torch && F.Torch->Cxx11Abi)
        return *F.Torch->Cxx11Abi ? "TRUE" : "FALSE";
      if (Name == "python.tag" && F.Python)
        return F.Python->tag();
      if (Name == "platform.tag" && F.Platform)
        return F.Platform->tag();
      return std::nullopt;
    });
    if (!Url) {
      consumeError(Url.takeError());
      return std::nullopt;
    }
    return *Url;
  }

  /// Solver-level name and set of a requirement KEY = RANGE.
  std::pair<std::string, VersionSet> mapRequirement(StringRef Key,
                                                    const VersionSet &R) const {
    if (Key == "gcc")
      return {CompilerPkg.str(), lift(R, GccEpoch)};
    if (Key == "clang")
      return {CompilerPkg.str(), lift(R, ClangEpoch)};
    if (Lookup(Key))
      return {Key.str(), lift(R, PrebuiltEpoch).unionWith(lift(R, SourceEpoch))};
    return {Key.str(), R};
  }

private:
  static Version compilerVersion(const CompilerFacts &C) {
    return C.Ver.withEpoch(C.Family == "clang" ? ClangEpoch : GccEpoch);
  }

  SolverFact fact(std::vector<std::pair<std::string, TermT>> Terms,
                  std::string Text, std::vector<std::string> HintLines) {
    if (!HintLines.empty())
      Hints[Text] = std::move(HintLines);
    return SolverFact{std::move(Terms), std::move(Text)};
  }

  FixedFact fixedFact(StringRef P) const {
    if (P == "torch")
      return {F.Torch ? std::optional(F.Torch->Ver) : std::nullopt,
              "torch is not installed in the Python environment"};
    if (P == "torch.cuda") {
      if (!F.Torch)
        return {std::nullopt, "torch is not installed, so torch.cuda is unknown"};
      return {F.Torch->Cuda, "torch " + F.Torch->Ver.str() +
                                 " is a CPU build (torch.version.cuda is None)"};
    }
    if (P == "python")
      return {F.Python ? std::optional(F.Python->Ver) : std::nullopt,
              "no Python was found"};
    if (P == "driver")
      return {F.Driver ? F.Driver->KernelVersion : std::nullopt,
              "no NVIDIA driver was found"};
    if (P == "driver.cuda")
      return {F.Driver ? F.Driver->Cuda : std::nullopt,
              "no NVIDIA driver was found"};
    if (P == "compute_capability") {
      std::optional<Version> Min;
      for (const GpuFacts &G : F.Gpus)
        if (!Min || G.ComputeCapability < *Min)
          Min = G.ComputeCapability;
      return {Min, "no GPU was found"};
    }
    auto It = F.Packages.find(P.str());
    if (It != F.Packages.end())
      return {It->second.Ver, ""};
    return {std::nullopt,
            (P + " is not installed and no manifest describes it").str()};
  }

  std::vector<std::string> intersectArchs(ArrayRef<std::string> Want,
                                          const Release &Rel) const {
    std::vector<std::string> Out;
    for (const std::string &A : Want)
      if (any_of(Rel.Archs, [&](const Arch &R) { return R.Name == A; }))
        Out.push_back(A);
    return Out;
  }

  bool nvccSupports(const NvccFacts &N, StringRef A) const {
    if (!N.Archs.empty())
      return is_contained(N.Archs, A) ||
             (A.endswith("a") || A.endswith("f")
                  ? is_contained(N.Archs, A.drop_back())
                  : false);
    return KB.nvccRangeForArch(A).contains(N.Ver);
  }

  /// The toolkit versions that can compile A: the knowledge base's range,
  /// corrected by what each toolkit found says of itself.
  VersionSet nvccRangeFor(StringRef A) const {
    VersionSet R = KB.nvccRangeForArch(A);
    for (const NvccFacts *T : Toolkits) {
      if (T->Archs.empty())
        continue;
      VersionSet Exact = VersionSet::exactly(T->Ver);
      R = nvccSupports(*T, A) ? R.unionWith(Exact) : R.minus(Exact);
    }
    return R;
  }

  std::string describeTarget(StringRef A) const {
    for (const GpuFacts &G : F.Gpus)
      if (G.smArch() == A && !G.Name.empty())
        return (A + " (" + G.Name + ")").str();
    return A.str();
  }

  /// Why the published binaries of Rel do not fit this machine; "" if one
  /// does.
  std::string prebuiltMismatch(const Package &Pkg, const Release &Rel) const {
    const PrebuiltMatrix &M = *Rel.Prebuilt;
    if (!F.Torch)
      return "no prebuilt binary can be chosen: torch is not installed";
    if (!F.Torch->Cuda)
      return "no prebuilt binary fits torch " + F.Torch->Ver.str() +
             " (a CPU build)";
    Version TorchMM = F.Torch->Ver.withoutLocal().truncated(2);
    const Version &Cuda = *F.Torch->Cuda;
    std::string Py = F.Python ? F.Python->tag() : "";
    std::string Plat = F.Platform ? F.Platform->tag() : "";
    bool TorchOk = any_of(M.Torch, [&](const Version &V) { return V == TorchMM; });
    bool CudaOk = any_of(M.Cuda, [&](const Version &V) {
      return V.release().size() >= 2 ? V == Cuda.truncated(2)
                                     : V.major() == Cuda.major();
    });
    bool PyOk = M.Python.empty() || is_contained(M.Python, Py);
    bool AbiOk = M.Cxx11Abi.empty() ||
                 (F.Torch->Cxx11Abi && is_contained(M.Cxx11Abi, *F.Torch->Cxx11Abi));
    bool PlatOk = M.Platform.empty() || is_contained(M.Platform, Plat);
    if (TorchOk && CudaOk && PyOk && AbiOk && PlatOk)
      return "";
    std::string Combo = "torch " + majorMinor(TorchMM) + " / cu" +
                        std::to_string(Cuda.major());
    if (!M.Python.empty())
      Combo += " / " + (Py.empty() ? std::string("no python") : Py);
    if (!M.Cxx11Abi.empty())
      Combo += F.Torch->Cxx11Abi
                   ? (*F.Torch->Cxx11Abi ? " / cxx11abi" : " / pre-cxx11 abi")
                   : " / unknown abi";
    if (!M.Platform.empty())
      Combo += " / " + (Plat.empty() ? std::string("unknown platform") : Plat);
    return "no prebuilt wheel is published for " + Combo;
  }

  void nvccFacts(std::vector<SolverFact> &Out) {
    std::string TorchNeed;
    if (F.Torch && F.Torch->Cuda)
      TorchNeed = majorMinor(*F.Torch->Cuda);
    if (Toolkits.empty()) {
      std::string Text = "no nvcc was found on this machine";
      if (!Req.NvccAbsentDetail.empty())
        Text += " (" + Req.NvccAbsentDetail + ")";
      std::vector<std::string> H;
      if (!TorchNeed.empty())
        H = installNvccHints(*F.Torch->Cuda);
      else
        H.push_back("install a CUDA toolkit (nvcc), e.g. NVIDIA's cuda-nvcc "
                    "package or `conda install -c nvidia cuda-nvcc`");
      Out.push_back(fact({{NvccPkg.str(), TermT::positive(VersionSet::any())}},
                         Text, H));
      return;
    }
    for (const NvccFacts *T : Toolkits) {
      std::optional<unsigned> MaxGcc = T->MaxGcc, MaxClang = T->MaxClang;
      std::string From = "its crt/host_config.h";
      if (!MaxGcc && !MaxClang) {
        if (const ToolkitRow *Row = KB.toolkit(T->Ver)) {
          MaxGcc = Row->MaxGcc;
          MaxClang = Row->MaxClang;
          From = "the knowledge base";
        }
      }
      if (!MaxGcc && !MaxClang)
        continue;
      VersionSet Allowed =
          lift(MaxGcc ? upToMajor(*MaxGcc) : VersionSet::any(), GccEpoch)
              .unionWith(lift(MaxClang ? upToMajor(*MaxClang) : VersionSet::any(),
                              ClangEpoch));
      std::string Text = formatv("nvcc {0} supports", T->Ver.str()).str();
      if (MaxGcc)
        Text += formatv(" gcc <= {0}", *MaxGcc).str();
      if (MaxGcc && MaxClang)
        Text += " and";
      if (MaxClang)
        Text += formatv(" clang <= {0}", *MaxClang).str();
      Text += " (" + From + ")";
      std::vector<std::string> H;
      if (MaxGcc)
        H.push_back(formatv("install a g++ nvcc {0} accepts, e.g. `apt install "
                            "g++-{1}`; cudadeps finds g++-N on PATH and passes "
                            "it as -ccbin",
                            majorMinor(T->Ver), *MaxGcc)
                        .str());
      Out.push_back(fact({{NvccPkg.str(), TermT::positive(VersionSet::exactly(T->Ver))},
                          {CompilerPkg.str(), TermT::negative(Allowed)}},
                         Text, H));
    }
    // The driver must run the runtime of the toolkit's major.
    if (F.Driver && F.Driver->Cuda) {
      std::set<uint64_t> Majors;
      for (const NvccFacts *T : Toolkits)
        Majors.insert(T->Ver.major());
      for (uint64_t M : Majors) {
        if (M <= F.Driver->Cuda->major())
          continue;
        std::string Floor;
        if (const DriverFloorRow *Row = KB.driverFloor(M))
          Floor = "; a " + std::to_string(M) + ".x runtime needs a driver >= " +
                  Row->MinDriver.str();
        std::string Drv = F.Driver->KernelVersion
                              ? " (" + F.Driver->KernelVersion->str() + ")"
                              : "";
        std::string Text = formatv("the driver{0} supports CUDA {1} at most{2}",
                                   Drv, majorMinor(*F.Driver->Cuda), Floor)
                               .str();
        std::string To;
        if (const DriverFloorRow *Row = KB.driverFloor(M))
          To = " to >= " + Row->MinDriver.str();
        Out.push_back(fact(
            {{NvccPkg.str(), TermT::positive(sameMajor(M))}}, Text,
            {formatv("upgrade the NVIDIA driver{0}; or build with a {1}.x "
                     "toolkit (with a torch built for CUDA {1}.x)",
                     To, F.Driver->Cuda->major())
                 .str()}));
      }
    }
  }

  std::vector<std::string> installNvccHints(const Version &Cuda) const {
    std::string MM = majorMinor(Cuda);
    std::string Dash = formatv("{0}-{1}", Cuda.major(), Cuda.minor()).str();
    std::vector<std::string> H;
    std::string Line = "install an nvcc " + MM + ", e.g. `conda install -c nvidia "
                       "cuda-nvcc=" + MM + "` or NVIDIA's cuda-nvcc-" + Dash +
                       " package";
    if (Cuda.major() >= 13)
      Line += ", or `pip install nvidia-cuda-nvcc==" + MM + ".*`";
    H.push_back(Line + "; then set CUDA_HOME to it or put its bin/ on PATH");
    return H;
  }

  void packageFacts(const Package &Pkg, std::vector<SolverFact> &Out) {
    if (Pkg.Kind == BuildKind::Python)
      return;
    std::string P = Pkg.canonicalName();
    VersionSet AllSource = epochRange(SourceEpoch);
    if (Pkg.Kind == BuildKind::TorchExtension && F.Torch) {
      if (!F.Torch->Cuda) {
        Out.push_back(fact({{P, TermT::positive(AllSource)}},
                           "torch " + F.Torch->Ver.str() +
                               " is a CPU build (torch.version.cuda is None): "
                               "it cannot build CUDA extensions",
                           {"install a CUDA build of torch"}));
      } else {
        const Version &C = *F.Torch->Cuda;
        // Suggest installing a toolkit only when none of that major exists.
        bool HaveMajor = any_of(Toolkits, [&](const NvccFacts *T) {
          return T->Ver.major() == C.major();
        });
        Out.push_back(fact(
            {{P, TermT::positive(AllSource)},
             {NvccPkg.str(), TermT::negative(sameMajor(C.major()))}},
            formatv("torch {0} needs an nvcc {1}.x (torch rejects a different "
                    "CUDA major)",
                    F.Torch->Ver.str(), C.major())
                .str(),
            HaveMajor ? std::vector<std::string>{} : installNvccHints(C)));
      }
    }
    for (const std::string &A : Targets) {
      VersionSet Releases;
      for (const Release &R : Pkg.Releases)
        if (R.Archs.empty() ||
            any_of(R.Archs, [&](const Arch &X) { return X.Name == A; }))
          Releases = Releases.unionWith(
              VersionSet::exactly(R.Ver.withEpoch(SourceEpoch)));
      if (Releases.isEmpty())
        continue;
      VersionSet Range = nvccRangeFor(A);
      std::string RangeText = Range.isEmpty() ? "" : Range.str();
      std::string Text =
          Range.isEmpty()
              ? formatv("no known nvcc compiles the target {0}", describeTarget(A)).str()
              : formatv("the target {0} needs nvcc {1}", describeTarget(A),
                        RangeText)
                    .str();
      std::vector<std::string> H;
      if (!Range.isEmpty())
        H.push_back(formatv("install an nvcc {0} for {1}", RangeText, A).str());
      Out.push_back(fact({{P, TermT::positive(Releases)},
                          {NvccPkg.str(), TermT::negative(Range)}},
                         Text, H));
    }
  }

  const ResolveRequest &Req;
  const PackageLookup &Lookup;
  const Facts &F;
  const KnowledgeBase &KB;
  std::vector<std::string> Targets;
  std::vector<const NvccFacts *> Toolkits;
  std::vector<std::pair<Version, const CompilerFacts *>> Compilers;
  std::map<std::string, std::vector<std::string>> Hints;
  std::vector<SolverFact> AllFacts;
  std::map<std::string, VersionSet> RootPins;
};

/// One solve: the request it answered, its provider (which knows the facts
/// and hints it generated) and the result.
struct Attempt {
  std::unique_ptr<ResolveRequest> Req;
  std::unique_ptr<Provider> Prov;
  PackageSolveResult Result;
};

Attempt solveAttempt(const ResolveRequest &Base, RequirementMap Reqs,
                     const PackageLookup &Lookup, const Facts &F,
                     const KnowledgeBase &KB,
                     const std::vector<std::string> &Targets,
                     const std::map<std::string, VersionSet> &Pins = {}) {
  Attempt A;
  A.Req = std::make_unique<ResolveRequest>(Base);
  A.Req->Requires = std::move(Reqs);
  A.Prov = std::make_unique<Provider>(*A.Req, Lookup, F, KB, Targets);
  for (const auto &[P, S] : Pins)
    A.Prov->pinRoot(P, S);
  A.Result = solvePackages(*A.Prov, A.Req->RootName, Version({0}));
  return A;
}

/// Report wording for cudadeps' encoding: strategies and compiler families
/// are epochs; they read as words.
PackageReportStyle reportStyle(const PackageLookup &Lookup) {
  PackageReportStyle Base = pep440ReportStyle();
  PackageReportStyle S = Base;
  auto Strategies = [Base](const VersionSet &Set) -> std::string {
    if (Set.isAny())
      return "any";
    VersionSet E0 = project(Set, 0), E1 = project(Set, 1);
    bool Has0 = !E0.isEmpty(), Has1 = !E1.isEmpty();
    if (Has0 && Has1 && E0 == E1)
      return Base.Set(E0);
    if (Has1 && !Has0)
      return Base.Set(E1) + " (source build)";
    if (Has0 && !Has1 && Set.isSubsetOf(epochRange(0)))
      return Base.Set(E0);
    std::string Out;
    if (Has1)
      Out += Base.Set(E1) + " (source build)";
    if (Has0)
      Out += (Out.empty() ? "" : " or ") + Base.Set(E0) + " (prebuilt)";
    return Out;
  };
  auto Families = [Base](const VersionSet &Set) -> std::string {
    if (Set.isAny())
      return "any";
    VersionSet Gcc = project(Set, GccEpoch), Clang = project(Set, ClangEpoch);
    std::vector<std::string> Parts;
    if (!Gcc.isEmpty())
      Parts.push_back("gcc " + Base.Set(Gcc));
    if (!Clang.isEmpty())
      Parts.push_back("clang " + Base.Set(Clang));
    return Parts.empty() ? "none" : join(Parts, " or ");
  };
  S.PackageSet = [Base, Lookup, Strategies,
                  Families](const std::string &P, const VersionSet &Set) {
    if (P == CompilerPkg)
      return Families(Set);
    if (Lookup(P))
      return Strategies(Set);
    return Base.Set(Set);
  };
  return S;
}

std::vector<std::string> reasonsOf(const PackageDerivation &Tree,
                                   const Provider &Prov,
                                   const std::string &Root,
                                   std::vector<std::string> &HintsOut) {
  std::vector<std::string> Out;
  auto Add = [&](const std::string &Line) {
    if (!Line.empty() && !is_contained(Out, Line))
      Out.push_back(Line);
  };
  PackageReportStyle Style = pep440ReportStyle();
  // Machine facts first, then unavailable versions, then the rest: the
  // order a reader needs ("no nvcc", "torch needs 12.x", "no wheel").
  std::vector<solver::IncompId> Ids = Tree.externals();
  auto Rank = [&](solver::IncompId Id) {
    const auto &N = Tree[Id];
    switch (N.Kind) {
    case solver::CauseKind::Custom:
      // Something missing from the machine ({nvcc any}) comes first.
      return N.Terms.size() == 1 && N.Terms[0].second.isPositive() &&
                     N.Terms[0].second.set().isAny()
                 ? 0
                 : 1;
    case solver::CauseKind::Unavailable:
      return 2;
    default:
      return 3;
    }
  };
  std::stable_sort(Ids.begin(), Ids.end(), [&](auto A, auto B) {
    return Rank(A) < Rank(B);
  });
  for (solver::IncompId Id : Ids) {
    const auto &N = Tree[Id];
    switch (N.Kind) {
    case solver::CauseKind::Custom:
    case solver::CauseKind::Unavailable:
      Add(N.Text);
      for (const std::string &H : Prov.hintsFor(N.Text))
        if (!is_contained(HintsOut, H))
          HintsOut.push_back(H);
      break;
    case solver::CauseKind::NoVersions: {
      const auto &T = N.Terms.front();
      // A manifest package's versions are its releases: "no version of
      // causal-conv1d matches" restates the reasons given for each one.
      if (Prov.isManifestPackage(T.first))
        break;
      // For the toolkits and compilers, say what the machine has.
      if (T.first == NvccPkg || T.first == CompilerPkg) {
        Add(Prov.describeCandidates(T.first));
        break;
      }
      Add(formatv("no version of {0} matches {1}", T.first,
                  Style.Set(T.second.set()))
              .str());
      break;
    }
    case solver::CauseKind::Dependency: {
      if (N.Terms.size() != 2 || N.Terms[0].first == Root)
        break;
      const std::string &To = N.Terms[1].first;
      if (To == NvccPkg || To == CompilerPkg)
        break;
      VersionSet Need = N.Terms[1].second.set();
      if (Need.isAny())
        break;
      Add(formatv("{0} needs {1} {2}", N.Terms[0].first, To,
                  Style.Set(Need))
              .str());
      break;
    }
    default:
      break;
    }
  }
  return Out;
}

} // namespace

Expected<Resolution> resolve(const ResolveRequest &Request,
                             const PackageLookup &Lookup, const Facts &F,
                             const KnowledgeBase &KB) {
  Resolution Res;
  // Targets: declared, else the GPUs found.
  if (!Request.TargetArchs.empty()) {
    Res.TargetArchs = Request.TargetArchs;
    Res.TargetOrigin = Request.TargetOrigin;
  } else {
    for (const GpuFacts &G : F.Gpus)
      if (!is_contained(Res.TargetArchs, G.smArch()))
        Res.TargetArchs.push_back(G.smArch());
    if (!Res.TargetArchs.empty())
      Res.TargetOrigin = "GPUs found";
  }

  auto Try = [&](RequirementMap Reqs,
                 const std::map<std::string, VersionSet> &Pins = {}) {
    return solveAttempt(Request, std::move(Reqs), Lookup, F, KB,
                        Res.TargetArchs, Pins);
  };
  auto Explain = [&](const Attempt &A, PackageResolution &PR) {
    PR.Because =
        reasonsOf(*A.Result.Failure, *A.Prov, Request.RootName, PR.Hints);
    PR.Derivation = explainFailure(*A.Result.Failure, reportStyle(Lookup));
  };

  // Which requested packages cannot be had on their own?
  std::vector<PackageResolution> Failed;
  Attempt Full = Try(Request.Requires);
  if (!Full.Result.solved()) {
    RequirementMap Kept;
    for (const auto &[Key, R] : Request.Requires) {
      Attempt Alone = Try(RequirementMap{{Key, R}});
      if (Alone.Result.solved()) {
        Kept.emplace(Key, R);
        continue;
      }
      PackageResolution PR;
      PR.Name = Key;
      PR.Requested = true;
      Explain(Alone, PR);
      const Package *Pkg = Lookup(Key);
      if (Pkg && !Pkg->Fallbacks.empty() && !Request.NoFallback) {
        const Fallback &FB = Pkg->Fallbacks.front();
        PR.How = Strategy::Fallback;
        ChosenFallback CF{FB.Name, FB.Summary, FB.Impact, {}};
        for (const auto &[K, V] : FB.Env)
          CF.Env.emplace_back(K, V.Value);
        PR.Fallback = std::move(CF);
      } else {
        PR.How = Strategy::Unsatisfiable;
        if (Pkg && !Pkg->Fallbacks.empty())
          PR.Hints.push_back("a fallback is declared (" +
                             Pkg->Fallbacks.front().Name +
                             "); it was not used because of --no-fallback");
      }
      Failed.push_back(std::move(PR));
    }
    // Packages that work alone but not together are unsatisfiable as a set.
    Attempt Rest = Try(Kept);
    if (!Rest.Result.solved()) {
      for (const auto &[Key, R] : Kept) {
        PackageResolution PR;
        PR.Name = Key;
        PR.Requested = true;
        PR.How = Strategy::Unsatisfiable;
        Explain(Rest, PR);
        Failed.push_back(std::move(PR));
      }
    }
    Full = std::move(Rest);
  }

  if (Full.Result.solved()) {
    const Provider *FullProv = Full.Prov.get();
    const auto &Sol = *Full.Result.Solution;
    for (const auto &[Name, V] : Sol) {
      const Package *Pkg = Lookup(Name);
      if (!Pkg || Name == Request.RootName)
        continue;
      const Release *Rel = Pkg->findRelease(V.withEpoch(0));
      if (!Rel)
        continue;
      PackageResolution PR;
      PR.Name = Name;
      PR.Requested = Request.Requires.count(Name) != 0;
      PR.Ver = Rel->Ver;
      bool Compiles = Pkg->Kind != BuildKind::Python;
      if (V.epoch() == PrebuiltEpoch) {
        PR.How = Strategy::Prebuilt;
        PR.PrebuiltUrl = FullProv->prebuiltUrl(*Pkg, *Rel);
      } else if (!Compiles) {
        PR.How = Strategy::NoBuild;
      } else {
        PR.How = Strategy::Source;
        auto N = Sol.find(NvccPkg.str());
        auto C = Sol.find(CompilerPkg.str());
        if (N != Sol.end())
          if (const NvccFacts *T = FullProv->toolkit(N->second))
            PR.Nvcc = *T;
        if (C != Sol.end())
          if (const CompilerFacts *CF = FullProv->compiler(C->second))
            PR.Compiler = *CF;
        PR.Archs = FullProv->archsFor(*Rel, PR.Nvcc ? &*PR.Nvcc : nullptr);
        // Why the other toolkits and compilers were not chosen.
        for (const auto &SF : FullProv->allFacts()) {
          const TermT *PkgTerm = nullptr;
          const TermT *NvccTerm = nullptr;
          const TermT *CompTerm = nullptr;
          for (const auto &[TP, T] : SF.Terms) {
            if (TP == Name)
              PkgTerm = &T;
            else if (TP == NvccPkg)
              NvccTerm = &T;
            else if (TP == CompilerPkg)
              CompTerm = &T;
          }
          if (PkgTerm && !PkgTerm->set().contains(V))
            continue;
          for (const NvccFacts *T : FullProv->toolkits()) {
            if (PR.Nvcc && T->Ver == PR.Nvcc->Ver)
              continue;
            bool Excluded = false;
            if (NvccTerm && !CompTerm)
              Excluded = NvccTerm->isPositive()
                             ? NvccTerm->set().contains(T->Ver)
                             : !NvccTerm->set().contains(T->Ver);
            if (Excluded) {
              std::string Line = "nvcc " + T->Ver.str() + " (" + T->Path +
                                 ") not used: " + SF.Text;
              if (!is_contained(PR.NotChosen, Line))
                PR.NotChosen.push_back(Line);
            }
          }
          if (NvccTerm && CompTerm && PR.Nvcc &&
              NvccTerm->set().contains(PR.Nvcc->Ver)) {
            for (const auto &[CV, CF] : FullProv->compilers()) {
              if (PR.Compiler && CF->Path == PR.Compiler->Path)
                continue;
              if (!CompTerm->set().contains(CV)) {
                std::string Line = CF->Family + " " + CF->Ver.str() + " (" +
                                   CF->Path + ") not used: " + SF.Text;
                if (!is_contained(PR.NotChosen, Line))
                  PR.NotChosen.push_back(Line);
              }
            }
          }
        }
      }
      // Not the newest release from source: say why.
      const Release *Newest = nullptr;
      for (const Release &R : Pkg->Releases)
        if (!Newest || Newest->Ver < R.Ver)
          Newest = &R;
      bool Preferred = Newest == Rel && V.epoch() == SourceEpoch;
      if (!Preferred && Newest) {
        // Ask the solver again with the newest release's source build
        // pinned: its failure is the reason.
        std::map<std::string, VersionSet> Pin{
            {Name, VersionSet::exactly(Newest->Ver.withEpoch(SourceEpoch))}};
        RequirementMap Reqs = Full.Req->Requires;
        if (!Reqs.count(Name)) {
          Requirement Any;
          Any.Key = Name;
          Any.Range = VersionSet::any();
          Reqs.emplace(Name, Any);
        }
        Attempt Why = Try(Reqs, Pin);
        if (!Why.Result.solved()) {
          Explain(Why, PR);
          PR.NotPreferred = Name + " " + Newest->VersionText +
                            (Compiles ? " from source" : "");
        }
      }
      Res.Packages.push_back(std::move(PR));
    }
  }
  for (PackageResolution &PR : Failed)
    Res.Packages.push_back(std::move(PR));

  // Requested packages first, in the project's order, then transitive ones.
  stable_sort(Res.Packages, [&](const PackageResolution &A,
                                const PackageResolution &B) {
    return A.Requested > B.Requested;
  });

  Res.Status = ResolveStatus::Resolved;
  for (const PackageResolution &PR : Res.Packages) {
    if (PR.How == Strategy::Unsatisfiable)
      Res.Status = ResolveStatus::Unsatisfiable;
    else if (PR.How == Strategy::Fallback &&
             Res.Status == ResolveStatus::Resolved)
      Res.Status = ResolveStatus::Fallback;
  }
  if (Res.TargetArchs.empty() &&
      any_of(Res.Packages,
             [](const PackageResolution &P) { return P.How == Strategy::Source; }))
    Res.Warnings.push_back(
        "no GPU was found and no target archs were declared: building for "
        "every arch the release lists and nvcc supports (declare targets with "
        "--arch sm_XX or [target] archs)");
  return Res;
}

} // namespace cudadeps
