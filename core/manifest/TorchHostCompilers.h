//===- TorchHostCompilers.h - torch's own host-compiler table per CUDA ----===//
//
// Before it compiles a CUDA extension, torch (torch/utils/cpp_extension.py,
// _check_cuda_version) looks up the CUDA release of nvcc ("12.8") in its own
// table of host compiler versions (CUDA_GCC_VERSIONS, CUDA_CLANG_VERSIONS)
// and raises RuntimeError when the compiler is outside it: on Linux, for a
// binary torch (not a source build, "2.12.0a0+git..."), unless
// TORCH_DONT_CHECK_COMPILER_ABI is set. A CUDA release the table does not
// list is only a warning. The table differs between torch minors and is
// stricter than nvcc's own limits in places (torch 2.11 rejects gcc 14 with
// CUDA 12.8, which nvcc 12.8 accepts). It is data:
// manifests/cuda/torch-host-compilers.toml, one row per torch minor, each
// citing the file it was read from.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_MANIFEST_TORCHHOSTCOMPILERS_H
#define CUDADEPS_CORE_MANIFEST_TORCHHOSTCOMPILERS_H

#include "core/support/Diagnostic.h"
#include "core/version/Version.h"
#include "core/version/VersionSet.h"

#include "llvm/ADT/StringRef.h"

#include <toml++/toml.h>

#include <string>
#include <vector>

namespace cudadeps {

/// The compilers torch accepts for one CUDA release and family.
struct TorchCompilerBound {
  std::string Family; // "gcc" or "clang"
  Version Cuda;       // "12.8"; "11.4.48" for torch's exact-release special case
  Version Min;        // the lowest accepted, "6.0.0"
  Version Max;        // the upper bound, "14.0"
  bool MaxInclusive = false; // torch 1.13 accepts Max itself, later ones not
  SourceLocation Loc;

  /// The accepted compiler versions: [Min, Max) or [Min, Max].
  VersionSet accepted() const;
  /// ">=6.0.0,<14.0" as torch's message writes it.
  std::string rangeText() const;
};

/// One torch minor's table.
struct TorchHostCompilerRow {
  Version Torch; // major.minor: 2.11
  std::vector<TorchCompilerBound> Bounds;
  std::string Source;
  SourceLocation Loc; // the `torch` value of the row
  std::string Note;

  /// The bound torch applies to \p Family with \p Nvcc: the entry of the
  /// exact release when there is one (11.4.48), else of its major.minor;
  /// nullptr when there is none (torch only warns then).
  const TorchCompilerBound *bound(llvm::StringRef Family,
                                  const Version &Nvcc) const;
};

/// Reads the [[torch_host_compilers]] rows of a knowledge-base file into
/// \p Out; errors (located in \p File) go to \p Diags. A row without
/// `source`, a torch minor listed twice, a bad version or an empty range is
/// an error.
void readTorchHostCompilers(const toml::table &Root, llvm::StringRef File,
                            const std::vector<TorchHostCompilerRow> &Known,
                            std::vector<TorchHostCompilerRow> &Out,
                            DiagnosticEngine &Diags);

} // namespace cudadeps

#endif
