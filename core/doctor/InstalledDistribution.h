//===- InstalledDistribution.h - what a dist-info says about a build ------===//
//
// An installed Python distribution, read from its *.dist-info (or
// *.egg-info) directory without importing anything:
//  - the version: the directory name, else METADATA / PKG-INFO;
//  - the build tag of binary wheels, from the local version label
//    ("+cu12torch2.6cxx11abiTRUE" as causal-conv1d, flash-attn and mamba-ssm
//    publish them; "+pt26cu124" in the torchvision style), taken from the
//    installed version or the wheel file named in direct_url.json;
//  - its metadata's `Requires-Dist: torch` specifier (unconditional ones);
//  - its shared objects: the *.so files listed in RECORD (dist-info) or
//    installed-files.txt (egg-info); for an editable install, those under
//    the source directory of direct_url.json.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_DOCTOR_INSTALLEDDISTRIBUTION_H
#define CUDADEPS_CORE_DOCTOR_INSTALLEDDISTRIBUTION_H

#include "core/version/Version.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace cudadeps {

/// What a local version label says a wheel was built for.
struct BuildTag {
  std::string Label;                 // "cu12torch2.6cxx11abiTRUE"
  std::optional<Version> Torch;      // 2.6
  std::optional<unsigned> CudaMajor; // 12
  std::optional<Version> Cuda;       // 12.8 for cu128; absent for cu12
  std::optional<bool> Cxx11Abi;
  bool empty() const { return !Torch && !CudaMajor && !Cxx11Abi; }
};

/// Reads a local version label; fields it does not name stay empty.
/// cuNN with NN < 20 is a CUDA major (cu12), otherwise major and minor
/// (cu128 = 12.8, cu118 = 11.8, cu92 = 9.2).
BuildTag parseBuildTag(llvm::StringRef Label);

/// The local label of a wheel file name or URL
/// (".../causal_conv1d-1.6.1+cu12torch2.9cxx11abiTRUE-cp312-...whl").
std::string wheelLocalLabel(llvm::StringRef FileOrUrl);

struct InstalledDistribution {
  std::string DistInfo; // the directory
  std::string Site;     // the site-packages directory holding it
  std::optional<Version> Ver;
  std::string WheelUrl; // direct_url.json "url", when present
  bool Editable = false;
  BuildTag Tag;        // from the version's label, else the wheel URL's
  std::string TagFrom; // "the version 1.6.1+cu12..." or "the wheel <url>"
  /// `Requires-Dist: torch ...`: the specifier as written ("==2.6.0").
  std::optional<std::string> TorchRequirement;
  std::vector<std::string> SharedObjects; // absolute paths that exist
  std::string FilesFrom; // "RECORD", "installed-files.txt", ...
};

/// Reads \p DistInfoDir. An unreadable directory is an error; missing
/// files inside it only leave fields empty.
llvm::Expected<InstalledDistribution>
readInstalledDistribution(llvm::StringRef DistInfoDir);

} // namespace cudadeps

#endif
