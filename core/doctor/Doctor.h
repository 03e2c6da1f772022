//===- Doctor.h - is what is installed what this machine needs? ----------===//
//
// `cudadeps doctor` checks the installed packages of a project (or every
// registry package that is installed) without importing anything. For each:
//  - installed: the distribution the cuda-runtime probe found (its
//    dist-info), its version against the project's requirement; when absent,
//    what that costs (the manifest's fallbacks) and how to install it;
//  - torch build: the wheel's local version tag (torch major.minor, CUDA
//    major, C++11 ABI) and its `Requires-Dist: torch` against the torch
//    installed;
//  - symbols: every dynamic symbol its shared objects need from torch (C++
//    names in c10::, at::, torch::, caffe2::, and THP* C names) must be
//    exported by a library in torch/lib, else the import fails with
//    "undefined symbol";
//  - CUDA: the libcudart.so.N it links against torch's CUDA major;
//  - archs: the GPU code of its fatbinaries against each target GPU
//    (Fatbin.h's fitForGpu: native code, PTX that the driver JIT-compiles, or
//    nothing that loads).
// The verdict is ok, missing, stale (reinstall or rebuild it) or wrong archs.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_DOCTOR_DOCTOR_H
#define CUDADEPS_CORE_DOCTOR_DOCTOR_H

#include "core/facts/Facts.h"
#include "core/manifest/Manifest.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace cudadeps {

struct DoctorPackage {
  std::string Name;                  // canonical
  const Package *Manifest = nullptr; // its manifest (fallbacks), if known
  std::optional<Requirement> Wanted; // the project's requirement, if any
};

struct DoctorRequest {
  std::vector<DoctorPackage> Packages;
  /// The GPUs to check device code against ("sm_90"); empty = not checked.
  std::vector<std::string> TargetArchs;
  std::string TargetOrigin; // "GPUs found", "--arch", "[target] archs in F"
};

enum class Verdict { Ok, Missing, Stale, WrongArchs };
/// "ok", "missing", "stale", "wrong-archs".
llvm::StringRef verdictName(Verdict V);

enum class CheckKind { Installed, Version, TorchBuild, Symbols, Cuda, Archs };
/// "installed", "version", "torch-build", "symbols", "cuda", "archs".
llvm::StringRef checkKindName(CheckKind K);

/// Ok: checked and fine. Warning: works, with a cost said in the message.
/// Problem: will fail (decides the verdict). Unknown: could not be checked.
enum class CheckStatus { Ok, Warning, Problem, Unknown };
llvm::StringRef checkStatusName(CheckStatus S);

struct DoctorCheck {
  CheckKind Kind;
  CheckStatus Status;
  std::string Message;
};

struct MissingSymbol {
  std::string Symbol;    // "_ZN3c1011stubVersionEv"
  std::string Demangled; // "c10::stubVersion()"
};

/// One shared object of a package, as read.
struct InspectedObject {
  std::string Path;
  std::string Error;                   // it could not be read
  std::optional<unsigned> CudartMajor; // DT_NEEDED libcudart.so.N
  bool StaticCudart = false;
  std::string ToolkitRelease;         // of its device code, when known
  std::vector<std::string> Cubins;    // "sm_90"
  std::vector<std::string> Ptx;       // "compute_90"
  unsigned TorchSymbols = 0;          // symbols it needs from torch
  std::vector<MissingSymbol> Missing; // of those, not exported by torch
};

struct FallbackNote {
  std::string Name, Summary, Impact;
};

struct PackageDiagnosis {
  std::string Name;
  Verdict Result = Verdict::Ok;
  std::optional<std::string> Version;  // installed version
  std::string DistInfo;                // where it was found ("" = not read)
  std::string InstallCommand;          // "cudadeps install NAME"
  std::vector<FallbackNote> Fallbacks; // what a missing package costs
  std::vector<DoctorCheck> Checks;
  std::vector<InspectedObject> Objects;
};

struct DoctorReport {
  std::vector<PackageDiagnosis> Packages;
  std::string TorchLibDir; // where torch's exports were read ("" = not)
  std::vector<std::string> TargetArchs;
  std::string TargetOrigin;
  bool allOk() const;
};

/// Checks \p Request's packages against \p F (the probed machine: package
/// sources name their dist-info directories, torch's names its version.py).
DoctorReport diagnose(const DoctorRequest &Request, const Facts &F);

/// True for a dynamic symbol that comes from torch's libraries.
bool isTorchSymbol(llvm::StringRef Mangled);

} // namespace cudadeps

#endif
