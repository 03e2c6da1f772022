//===- Doctor.cpp - is what is installed what this machine needs? --------===//

#include "core/doctor/Doctor.h"

#include "core/doctor/InstalledDistribution.h"
#include "core/inspect/SharedObject.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace cudadeps {

StringRef verdictName(Verdict V) {
  switch (V) {
  case Verdict::Ok:
    return "ok";
  case Verdict::Missing:
    return "missing";
  case Verdict::Stale:
    return "stale";
  case Verdict::WrongArchs:
    return "wrong-archs";
  }
  llvm_unreachable("unknown verdict");
}

StringRef checkKindName(CheckKind K) {
  switch (K) {
  case CheckKind::Installed:
    return "installed";
  case CheckKind::Version:
    return "version";
  case CheckKind::TorchBuild:
    return "torch-build";
  case CheckKind::Symbols:
    return "symbols";
  case CheckKind::Cuda:
    return "cuda";
  case CheckKind::Archs:
    return "archs";
  }
  llvm_unreachable("unknown check");
}

StringRef checkStatusName(CheckStatus S) {
  switch (S) {
  case CheckStatus::Ok:
    return "ok";
  case CheckStatus::Warning:
    return "warning";
  case CheckStatus::Problem:
    return "problem";
  case CheckStatus::Unknown:
    return "unknown";
  }
  llvm_unreachable("unknown status");
}

bool DoctorReport::allOk() const {
  return llvm::all_of(Packages, [](const PackageDiagnosis &P) {
    return P.Result == Verdict::Ok;
  });
}

bool isTorchSymbol(StringRef Mangled) {
  if (Mangled.startswith("THP"))
    return true;
  std::string NS = outerNamespace(Mangled);
  return NS == "c10" || NS == "at" || NS == "torch" || NS == "caffe2";
}

namespace {

/// How many missing symbols a message names before "and N more".
constexpr size_t MissingShown = 3;

/// torch/lib of a probed torch ("" when torch was declared or has no lib/).
std::string torchLibDir(const Facts &F) {
  if (!F.Torch || F.Torch->From.How != Source::Kind::Probed)
    return {};
  StringRef VersionPy = F.Torch->From.From;
  if (sys::path::filename(VersionPy) != "version.py")
    return {};
  SmallString<256> Lib(sys::path::parent_path(VersionPy));
  sys::path::append(Lib, "lib");
  return sys::fs::is_directory(Lib) ? std::string(Lib) : std::string();
}

/// The symbols torch's own libraries export, read once when first needed.
class TorchExports {
public:
  explicit TorchExports(std::string Dir) : Dir(std::move(Dir)) {}
  const std::string &dir() const { return Dir; }

  /// Reads them; returns the reason when they cannot be read.
  std::string load() {
    if (Loaded)
      return Error;
    Loaded = true;
    std::error_code EC;
    unsigned Libraries = 0;
    std::string Unreadable;
    for (sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
         It.increment(EC)) {
      StringRef Name = sys::path::filename(It->path());
      bool Torchs = Name.startswith("libc10") || Name.startswith("libtorch") ||
                    Name.startswith("libshm") || Name.startswith("libcaffe2");
      if (!Torchs || !(Name.endswith(".so") || Name.contains(".so.")))
        continue;
      Expected<SharedObject> SO = readSharedObject(It->path(), ReadExports);
      if (!SO) { // not a library after all (a linker script, a stray file)
        Unreadable = toString(SO.takeError());
        continue;
      }
      ++Libraries;
      for (const std::string &S : SO->Exported)
        Exported.insert(S);
    }
    if (!Libraries)
      Error = Unreadable.empty() ? "no libc10/libtorch library in " + Dir
                                 : Unreadable;
    return Error;
  }
  bool exports(StringRef Symbol) const { return Exported.contains(Symbol); }

private:
  std::string Dir;
  bool Loaded = false;
  std::string Error;
  StringSet<> Exported;
};

std::string torchText(const TorchFacts &T) { return "torch " + T.Ver.str(); }

std::string cudaOfTorch(const TorchFacts &T) {
  return T.Cuda ? "CUDA " + T.Cuda->str() : std::string("no CUDA");
}

std::string abiText(bool On) {
  return On ? "the C++11 ABI" : "the pre-C++11 ABI";
}

std::string archNumberText(StringRef Arch) {
  StringRef Digits = Arch;
  Digits.consume_front("sm_");
  return Digits.rtrim("af").str();
}

class Diagnoser {
public:
  Diagnoser(const DoctorRequest &Request, const Facts &F)
      : Request(Request), F(F), Torch(torchLibDir(F)) {}

  DoctorReport run() {
    DoctorReport R;
    R.TargetArchs = Request.TargetArchs;
    R.TargetOrigin = Request.TargetOrigin;
    for (const DoctorPackage &P : Request.Packages)
      R.Packages.push_back(diagnose(P));
    if (TorchRead)
      R.TorchLibDir = Torch.dir();
    return R;
  }

private:
  PackageDiagnosis diagnose(const DoctorPackage &P);
  void checkBuildTag(const InstalledDistribution &D, PackageDiagnosis &Out);
  void checkObject(const std::string &Path, PackageDiagnosis &Out);
  void checkSymbols(const SharedObject &SO, InspectedObject &Obj,
                    PackageDiagnosis &Out);
  void checkCuda(const InspectedObject &Obj, PackageDiagnosis &Out);
  void checkArchs(const SharedObject &SO, const InspectedObject &Obj,
                  PackageDiagnosis &Out);

  static void add(PackageDiagnosis &Out, CheckKind K, CheckStatus S,
                  std::string Message) {
    Out.Checks.push_back({K, S, std::move(Message)});
  }
  std::string objectName(const std::string &Path) const {
    return sys::path::filename(Path).str();
  }

  const DoctorRequest &Request;
  const Facts &F;
  TorchExports Torch;
  bool TorchRead = false;
};

PackageDiagnosis Diagnoser::diagnose(const DoctorPackage &P) {
  PackageDiagnosis Out;
  Out.Name = P.Name;
  Out.InstallCommand = "cudadeps install " + P.Name;
  auto Fact = F.Packages.find(P.Name);
  if (Fact == F.Packages.end()) {
    Out.Result = Verdict::Missing;
    if (P.Manifest)
      for (const Fallback &Fb : P.Manifest->Fallbacks)
        Out.Fallbacks.push_back({Fb.Name, Fb.Summary, Fb.Impact});
    std::string Where;
    if (F.Python && F.Python->From.How == Source::Kind::Probed)
      Where = " in the Python environment of " + F.Python->Path;
    else if (F.Python)
      Where = " (" + F.Python->From.describe() + ": not among its packages)";
    add(Out, CheckKind::Installed, CheckStatus::Problem,
        "not installed" + Where);
    return Out;
  }
  const PackageFact &PF = Fact->second;
  Out.Version = PF.Ver.str();
  if (P.Wanted && !P.Wanted->Range.contains(PF.Ver))
    add(Out, CheckKind::Version, CheckStatus::Problem,
        PF.Ver.str() + " does not satisfy the requirement " + P.Name +
            P.Wanted->Text);

  bool FromDistInfo = PF.From.How == Source::Kind::Probed &&
                      (StringRef(PF.From.From).endswith(".dist-info") ||
                       StringRef(PF.From.From).endswith(".egg-info"));
  if (!FromDistInfo) {
    add(Out, CheckKind::Installed, CheckStatus::Ok,
        "installed: " + PF.Ver.str() + " (" + PF.From.describe() +
            "; its files were not inspected)");
  } else {
    Expected<InstalledDistribution> D = readInstalledDistribution(PF.From.From);
    if (!D) {
      add(Out, CheckKind::Installed, CheckStatus::Unknown,
          "installed: " + PF.Ver.str() + ", but " + toString(D.takeError()));
    } else {
      Out.DistInfo = D->DistInfo;
      add(Out, CheckKind::Installed, CheckStatus::Ok,
          "installed: " + PF.Ver.str() + " from " + D->DistInfo);
      checkBuildTag(*D, Out);
      for (const std::string &Path : D->SharedObjects)
        checkObject(Path, Out);
    }
  }

  bool Stale = false, WrongArchs = false;
  for (const DoctorCheck &C : Out.Checks) {
    if (C.Status != CheckStatus::Problem)
      continue;
    (C.Kind == CheckKind::Archs ? WrongArchs : Stale) = true;
  }
  Out.Result = Stale        ? Verdict::Stale
               : WrongArchs ? Verdict::WrongArchs
                            : Verdict::Ok;
  return Out;
}

void Diagnoser::checkBuildTag(const InstalledDistribution &D,
                              PackageDiagnosis &Out) {
  const BuildTag &T = D.Tag;
  const std::optional<TorchFacts> &Installed = F.Torch;
  if (!T.empty()) {
    std::vector<std::string> Built, Mismatch;
    if (T.Torch) {
      Built.push_back("torch " + T.Torch->str());
      if (!Installed)
        Mismatch.push_back("no torch is installed");
      else if (Installed->Ver.truncated(2).withoutLocal() != *T.Torch)
        Mismatch.push_back(torchText(*Installed) + " is installed");
    }
    if (T.CudaMajor) {
      Built.push_back("CUDA " +
                      (T.Cuda ? T.Cuda->str() : std::to_string(*T.CudaMajor)));
      if (Installed && Installed->Cuda &&
          Installed->Cuda->major() != *T.CudaMajor)
        Mismatch.push_back(torchText(*Installed) + " uses " +
                           cudaOfTorch(*Installed));
      else if (Installed && !Installed->Cuda)
        Mismatch.push_back(torchText(*Installed) + " has no CUDA");
    }
    if (T.Cxx11Abi) {
      Built.push_back(abiText(*T.Cxx11Abi));
      if (Installed && Installed->Cxx11Abi &&
          *Installed->Cxx11Abi != *T.Cxx11Abi)
        Mismatch.push_back("torch uses " + abiText(*Installed->Cxx11Abi));
    }
    std::string What =
        "built for " + join(Built, ", ") + " (" + D.TagFrom + ")";
    if (Mismatch.empty())
      add(Out, CheckKind::TorchBuild, CheckStatus::Ok, What);
    else
      add(Out, CheckKind::TorchBuild, CheckStatus::Problem,
          What + ", but " + join(Mismatch, " and "));
  }
  if (D.TorchRequirement && !D.TorchRequirement->empty()) {
    Expected<VersionSet> Spec = VersionSet::parse(*D.TorchRequirement);
    if (!Spec) {
      consumeError(Spec.takeError());
    } else if (!Installed) {
      add(Out, CheckKind::TorchBuild, CheckStatus::Problem,
          "its metadata requires torch" + *D.TorchRequirement +
              ", but no torch is installed");
    } else if (!Spec->contains(Installed->Ver)) {
      add(Out, CheckKind::TorchBuild, CheckStatus::Problem,
          "its metadata requires torch" + *D.TorchRequirement + ", but " +
              torchText(*Installed) + " is installed");
    }
  }
  if (T.empty() && !D.TorchRequirement && !D.SharedObjects.empty())
    add(Out, CheckKind::TorchBuild, CheckStatus::Unknown,
        "no torch build tag in its version or wheel name; checked through "
        "its shared objects");
}

void Diagnoser::checkObject(const std::string &Path, PackageDiagnosis &Out) {
  InspectedObject Obj;
  Obj.Path = Path;
  Expected<SharedObject> SO = readSharedObject(Path, ReadDeviceCode);
  if (!SO) {
    Obj.Error = toString(SO.takeError());
    add(Out, CheckKind::Symbols, CheckStatus::Problem,
        Obj.Error + " (a damaged install: reinstall it)");
    Out.Objects.push_back(std::move(Obj));
    return;
  }
  Obj.CudartMajor = SO->CudartSoname;
  Obj.StaticCudart = SO->StaticCudart;
  for (const FatbinEntry &E : SO->DeviceCode)
    if (!E.ToolkitRelease.empty()) {
      Obj.ToolkitRelease = E.ToolkitRelease;
      break;
    }
  Obj.Cubins = entryNames(SO->DeviceCode, FatbinEntry::Kind::Cubin);
  Obj.Ptx = entryNames(SO->DeviceCode, FatbinEntry::Kind::Ptx);
  checkSymbols(*SO, Obj, Out);
  checkCuda(Obj, Out);
  checkArchs(*SO, Obj, Out);
  Out.Objects.push_back(std::move(Obj));
}

void Diagnoser::checkSymbols(const SharedObject &SO, InspectedObject &Obj,
                             PackageDiagnosis &Out) {
  std::vector<StringRef> Needed;
  for (const std::string &S : SO.Undefined)
    if (isTorchSymbol(S))
      Needed.push_back(S);
  Obj.TorchSymbols = Needed.size();
  if (Needed.empty())
    return;
  std::string Name = objectName(SO.Path);
  std::string Count = std::to_string(Needed.size()) +
                      (Needed.size() == 1 ? " symbol" : " symbols");
  if (!F.Torch) {
    add(Out, CheckKind::Symbols, CheckStatus::Problem,
        Name + " needs " + Count + " from torch, but no torch is installed");
    return;
  }
  if (Torch.dir().empty()) {
    add(Out, CheckKind::Symbols, CheckStatus::Unknown,
        Name + " needs " + Count +
            " from torch; torch's libraries were not "
            "read (" +
            F.Torch->From.describe() + ")");
    return;
  }
  std::string Error = Torch.load();
  TorchRead = true;
  if (!Error.empty()) {
    add(Out, CheckKind::Symbols, CheckStatus::Unknown,
        Name + " needs " + Count + " from torch; " + Error);
    return;
  }
  for (StringRef S : Needed)
    if (!Torch.exports(S))
      Obj.Missing.push_back({S.str(), demangledName(S)});
  if (Obj.Missing.empty()) {
    add(Out, CheckKind::Symbols, CheckStatus::Ok,
        "the " + Count + " " + Name + " needs from torch " +
            (Needed.size() == 1 ? "is" : "are") + " exported by " +
            torchText(*F.Torch));
    return;
  }
  std::string Msg = "import will fail: " + Name + ": undefined symbol: ";
  for (size_t I = 0; I < Obj.Missing.size() && I < MissingShown; ++I) {
    const MissingSymbol &M = Obj.Missing[I];
    if (I)
      Msg += ", ";
    Msg += M.Symbol;
    if (M.Demangled != M.Symbol)
      Msg += " (" + M.Demangled + ")";
  }
  if (Obj.Missing.size() > MissingShown)
    Msg +=
        " and " + std::to_string(Obj.Missing.size() - MissingShown) + " more";
  Msg += "; " + torchText(*F.Torch) + " does not export " +
         (Obj.Missing.size() == 1 ? "it" : "them") +
         " (built against another torch)";
  add(Out, CheckKind::Symbols, CheckStatus::Problem, std::move(Msg));
}

void Diagnoser::checkCuda(const InspectedObject &Obj, PackageDiagnosis &Out) {
  if (!Obj.CudartMajor && !Obj.StaticCudart)
    return;
  std::string Name = objectName(Obj.Path);
  std::string Links =
      Obj.CudartMajor
          ? Name + " links libcudart.so." + std::to_string(*Obj.CudartMajor)
          : Name + " links the CUDA runtime statically" +
                (Obj.ToolkitRelease.empty()
                     ? std::string()
                     : " (CUDA " + Obj.ToolkitRelease + ")");
  if (!F.Torch) {
    add(Out, CheckKind::Cuda, CheckStatus::Unknown,
        Links + "; no torch is installed to compare with");
    return;
  }
  if (!F.Torch->Cuda) {
    add(Out, CheckKind::Cuda, CheckStatus::Problem,
        Links + ", but " + torchText(*F.Torch) + " has no CUDA (a CPU build)");
    return;
  }
  uint64_t TorchMajor = F.Torch->Cuda->major();
  std::string Against = torchText(*F.Torch) + " uses " + cudaOfTorch(*F.Torch);
  if (Obj.CudartMajor) {
    if (*Obj.CudartMajor == TorchMajor)
      add(Out, CheckKind::Cuda, CheckStatus::Ok, Links + "; " + Against);
    else
      add(Out, CheckKind::Cuda, CheckStatus::Problem,
          Links + ", but " + Against +
              " (built for another CUDA major: rebuild it against torch's)");
    return;
  }
  Expected<Version> Static = Version::parse(Obj.ToolkitRelease);
  if (Static && Static->major() != TorchMajor)
    add(Out, CheckKind::Cuda, CheckStatus::Warning,
        Links + ", but " + Against +
            " (two CUDA runtimes of different majors in one process)");
  else
    add(Out, CheckKind::Cuda, CheckStatus::Ok, Links + "; " + Against);
  if (!Static)
    consumeError(Static.takeError());
}

void Diagnoser::checkArchs(const SharedObject &SO, const InspectedObject &Obj,
                           PackageDiagnosis &Out) {
  std::string Name = objectName(SO.Path);
  if (!SO.DeviceCodeError.empty())
    add(Out, CheckKind::Archs, CheckStatus::Unknown,
        Name + ": " + SO.DeviceCodeError);
  if (SO.DeviceCode.empty())
    return;
  std::string Compiled = "compiled for ";
  Compiled += Obj.Cubins.empty() ? std::string("no GPU (PTX only)")
                                 : join(Obj.Cubins, ", ");
  if (!Obj.Ptx.empty())
    Compiled += " + PTX " + join(Obj.Ptx, ", ");
  Compiled = Name + ": " + Compiled;
  if (Request.TargetArchs.empty()) {
    add(Out, CheckKind::Archs, CheckStatus::Unknown,
        Compiled + "; no GPU found and no target archs given (--arch): "
                   "not checked");
    return;
  }
  bool FromGpus = Request.TargetOrigin == "GPUs found";
  std::vector<std::string> NoLoad, Jit, Native;
  for (const std::string &Target : Request.TargetArchs) {
    unsigned Number = 0;
    if (StringRef(archNumberText(Target)).getAsInteger(10, Number))
      continue;
    GpuFitResult Fit = fitForGpu(SO.DeviceCode, Number);
    if (Fit.Fit == GpuFit::None)
      NoLoad.push_back(Target);
    else if (Fit.Fit == GpuFit::Jit)
      Jit.push_back("no " + Target +
                    " code: the driver JIT-compiles the PTX "
                    "for " +
                    Fit.By->name() +
                    " at first launch (a slow first "
                    "start, once per driver cache; it needs a driver that "
                    "supports PTX ISA " +
                    Fit.By->PtxIsa + ")");
    else
      Native.push_back(Target);
  }
  std::string Has = FromGpus ? "this machine has " : "the target is ";
  std::string Origin = FromGpus ? "" : " (" + Request.TargetOrigin + ")";
  if (!NoLoad.empty()) {
    add(Out, CheckKind::Archs, CheckStatus::Problem,
        Compiled + "; " + Has + join(NoLoad, ", ") + Origin +
            " → the kernels will not load (\"no kernel image is available "
            "for execution on the device\")");
    return;
  }
  if (!Jit.empty()) {
    add(Out, CheckKind::Archs, CheckStatus::Warning,
        Compiled + "; " + join(Jit, "; "));
    return;
  }
  add(Out, CheckKind::Archs, CheckStatus::Ok,
      Compiled + "; runs natively on " + join(Native, ", ") + Origin);
}

} // namespace

DoctorReport diagnose(const DoctorRequest &Request, const Facts &F) {
  return Diagnoser(Request, F).run();
}

} // namespace cudadeps
