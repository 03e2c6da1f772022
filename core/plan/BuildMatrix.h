//===- BuildMatrix.h - the prebuilt binaries a maintainer's CI should build ===//
//
// From one release's [release.prebuilt] matrix (torch x CUDA x python x ABI x
// platform), the combinations that can exist, each with the toolchain that
// builds it: the newest nvcc of the row's CUDA major that the knowledge base
// knows and the package accepts, and the newest host gcc that nvcc accepts.
// A combination cannot exist when the torch table (manifests/cuda/torch.toml)
// says that torch minor was never published for the CUDA major or for the
// Python version, or when no known nvcc of the CUDA major satisfies the
// package's nvcc requirement, or when an `exclude` entry of the matrix
// removes it (the publishing CI skipped it). Torch minors the table does not
// list are kept (unchecked). Rendering lives in cli/CmdMatrix.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_PLAN_BUILDMATRIX_H
#define CUDADEPS_CORE_PLAN_BUILDMATRIX_H

#include "core/manifest/KnowledgeBase.h"
#include "core/manifest/Manifest.h"
#include "core/version/Version.h"

#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace cudadeps {

struct MatrixRow {
  Version Torch;                 // 2.8
  uint64_t CudaMajor = 0;        // 12: the wheel's +cu12
  std::string PythonTag;         // cp312
  std::optional<Version> Python; // 3.12 (none for a tag it cannot read)
  std::optional<bool> Cxx11Abi;  // none: the ABI is not in the name
  std::string Platform;          // linux_x86_64
  Version Nvcc;                  // 12.9: the toolkit that builds it
  std::optional<unsigned> Gcc;   // 14: newest host gcc that nvcc accepts
  bool TorchKnown = true;        // false: torch minor not in the torch table
};

/// Why a combination of the matrix was left out (for -v and the report).
struct DroppedCombination {
  Version Torch;
  Version Cuda;
  std::string PythonTag;
  std::string Reason;
};

struct BuildMatrix {
  std::string Package;
  std::string ReleaseText; // as written: "1.6.1"
  std::vector<MatrixRow> Rows;
  std::vector<DroppedCombination> Dropped; // one per torch/cuda/python
};

/// The build matrix of \p M's release \p Release, or of its newest release
/// that declares [release.prebuilt] when \p Release is none. Errors (a
/// StringError each): no package, no such release, no prebuilt matrix.
llvm::Expected<BuildMatrix>
computeBuildMatrix(const Manifest &M, const KnowledgeBase &KB,
                   const std::optional<Version> &Release = std::nullopt);

/// The newest toolkit of CUDA major \p Major the knowledge base knows that
/// is in \p Nvcc (the package's nvcc requirement): the lowest version of its
/// newest row ("12.9" for ">=12.9,<13"). None when no row qualifies.
std::optional<Version> newestNvccOfMajor(const KnowledgeBase &KB,
                                         uint64_t Major,
                                         const VersionSet &Nvcc);

/// "cp312" -> 3.12, "cp39" -> 3.9; none for anything else.
std::optional<Version> pythonOfWheelTag(llvm::StringRef Tag);

} // namespace cudadeps

#endif
