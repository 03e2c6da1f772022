//===- KnowledgeBase.h - CUDA compatibility tables, loaded from data
//--------===//
//
// What cudadeps knows about CUDA toolkits when a toolkit cannot be read
// itself (a facts file, a what-if): toolkit -> newest host gcc/clang,
// toolkit -> GPU architectures, toolkit major -> minimum driver, torch minor
// -> the CUDA toolkits its binaries were published for. The tables
// are data (manifests/cuda/*.toml), each row citing its source; nothing here
// is an if-chain in code.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_MANIFEST_KNOWLEDGEBASE_H
#define CUDADEPS_CORE_MANIFEST_KNOWLEDGEBASE_H

#include "core/manifest/TorchHostCompilers.h"
#include "core/support/Diagnostic.h"
#include "core/version/Version.h"
#include "core/version/VersionSet.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace cudadeps {

/// One toolkit row: the toolkits in Range (e.g. ">=12.8,<12.10").
struct ToolkitRow {
  VersionSet Range;
  std::string RangeText;
  std::optional<unsigned> MaxGcc;
  std::optional<unsigned> MaxClang;
  std::vector<std::string> Archs;   // sm_XX it compiles for (baseline forms)
  std::optional<Version> MinDriver; // Linux x86_64 driver the runtime needs
  std::string Source;               // the citation
  SourceLocation Loc;               // the `cuda` value of the row
  std::vector<std::string> ArchSpecific; // sm_XXa targets (`arch_specific`)
  std::vector<std::string> Family;       // sm_XXf targets (`family`)
  std::string Note;                      // disagreements between sources

  /// True if the row compiles Arch: sm_XX is looked up in Archs, sm_XXa in
  /// ArchSpecific, sm_XXf in Family.
  bool compiles(llvm::StringRef Arch) const;
};

/// A CUDA major and the oldest driver that runs its runtime (minor version
/// compatibility): 12 -> 525.60.13, 13 -> 580.
struct DriverFloorRow {
  uint64_t CudaMajor = 0;
  Version MinDriver;
  std::string Source;
  SourceLocation Loc; // the `cuda_major` value of the row
  std::string Note;
};

/// A torch minor and the CUDA toolkits its official binaries were built
/// A knowledge-base file larger than this is not read.
inline constexpr size_t MaxKnowledgeBaseFileBytes = 4u << 20;

/// with (manifests/cuda/torch.toml): 2.8 -> 12.6, 12.8, 12.9.
struct TorchRow {
  Version Torch;                   // major.minor: 2.8
  std::vector<Version> Cuda;       // 12.6, 12.8, 12.9
  std::optional<VersionSet> Python; // the interpreters it was published for
  std::string PythonText;
  std::string Source;
  SourceLocation Loc; // the `torch` value of the row
  std::string Note;
  /// The CUDA of the plain `pip install torch==X.Y.*` wheel on PyPI (Linux
  /// x86_64), one of Cuda (`pypi_cuda`).
  std::optional<Version> PypiCuda;
  /// False when Cuda holds only the toolkits verified so far and others may
  /// exist (`cuda_complete = false`).
  bool CudaComplete = true;

  /// The distinct CUDA majors of Cuda, ascending: {12, 13}.
  std::vector<uint64_t> cudaMajors() const;
  /// True if a binary of this torch minor may exist for CUDA major Major:
  /// Cuda lists it, or the list is not complete (unknown is not impossible).
  bool hasCudaMajor(uint64_t Major) const;
};

/// A toolkit cudadeps can assemble from NVIDIA's wheels on PyPI
/// (manifests/cuda/provisioning.toml): the nvcc version it gives and the
/// exact version of each wheel, with the cost on disk.
struct ProvisionRow {
  Version Cuda; // the nvcc version, "13.0.88"
  /// Distribution name -> version: nvidia-cuda-nvcc = 13.0.88, ...
  std::vector<std::pair<std::string, Version>> Components;
  std::optional<unsigned> DownloadMiB;  // the wheels (Linux x86_64)
  std::optional<unsigned> InstalledMiB; // the assembled toolkit
  std::string Source;
  SourceLocation Loc; // the `cuda` value of the row
  std::string Note;

  /// The version of a component, or nullptr.
  const Version *component(llvm::StringRef Name) const;
};

/// A CUDA major that cannot be assembled from PyPI, and why
/// (`[[no_provision]]`): CUDA 12's Linux wheels hold no nvcc.
struct NoProvisionRow {
  uint64_t CudaMajor = 0;
  std::string Reason;
  std::string Source;
  SourceLocation Loc;
};

class KnowledgeBase {
public:
  /// Loads every *.toml in Dir (manifests/cuda). Located errors for bad rows;
  /// a row without `source` is an error.
  /// With \p CacheDir (the cudadeps cache directory), the loaded tables
  /// are kept in a load cache (core/support/LoadCache.h) and read from it
  /// while every file of Dir is unchanged; any change parses them all again.
  static llvm::Expected<KnowledgeBase>
  loadDirectory(llvm::StringRef Dir, llvm::StringRef CacheDir = "");
  /// Parses one table file (for tests).
  llvm::Error addFile(llvm::StringRef Text, llvm::StringRef FileName);

  /// The row for a toolkit version, or nullptr when the version is unknown.
  /// Only the release numbers of Nvcc are compared (12.8.93 is in
  /// ">=12.8,<12.9"); versions past the newest row are unknown.
  const ToolkitRow *toolkit(const Version &Nvcc) const;
  /// The toolkit versions that can compile Arch ("sm_90", "sm_100a"):
  /// the union of the ranges of the rows listing it (the 'a'/'f' suffix is
  /// matched against the baseline and the row's own a/f list). An arch that
  /// the newest row lists is assumed to stay in later toolkits, so the set
  /// is open above ("sm_90" -> ">=11.8"). Rows are matched on release
  /// numbers, so gaps between rows that hold only pre-releases are closed
  /// ('>=12.9,<13' and '>=13.0,<13.1' join). An unknown or malformed arch
  /// gives the empty set.
  VersionSet nvccRangeForArch(llvm::StringRef Arch) const;
  /// The toolkit versions the rows cover (">=10.2,<13.6" as shipped), with
  /// gaps that hold no final release closed as in nvccRangeForArch.
  VersionSet knownRange() const;
  /// The minimum driver for a CUDA major, if known.
  const DriverFloorRow *driverFloor(uint64_t CudaMajor) const;
  /// The row of a torch minor (2.8.0 and 2.8 find the "2.8" row), or
  /// nullptr when the table does not list it.
  const TorchRow *torchRow(const Version &Torch) const;

  /// The toolkit build to provision for \p Wanted: the row of exactly that
  /// version ("13.0.88"), else the newest build whose version starts with
  /// it ("13.0" -> 13.0.88, "13" -> the newest 13.x); nullptr when none.
  const ProvisionRow *provision(const Version &Wanted) const;
  /// Why CUDA major \p Major cannot be provisioned from PyPI, if known.
  const NoProvisionRow *noProvision(uint64_t Major) const;

  const std::vector<ToolkitRow> &toolkits() const { return Toolkits; }
  const std::vector<ProvisionRow> &provisions() const { return Provisions; }
  const std::vector<DriverFloorRow> &driverFloors() const { return Floors; }
  const std::vector<TorchRow> &torchRows() const { return Torches; }
  /// torch's own host-compiler table of a torch minor (2.11.0+cu128 finds
  /// "2.11"; TorchHostCompilers.h), or nullptr when it is not listed.
  const TorchHostCompilerRow *torchHostCompilers(const Version &Torch) const;
  const std::vector<TorchHostCompilerRow> &torchHostCompilerRows() const {
    return TorchCompilers;
  }
  /// The tables as the load cache keeps them, and back (nullopt for bytes
  /// that are not whole encoded tables; never crashes).
  std::string encode() const;
  static std::optional<KnowledgeBase> decode(llvm::StringRef Bytes);

  bool empty() const {
    return Toolkits.empty() && Floors.empty() && Torches.empty();
  }

private:
  VersionSet computeNvccRangeForArch(llvm::StringRef Arch) const;

  /// nvccRangeForArch's answers: the solver asks for the same archs once per
  /// toolkit candidate and query. Shared by copies, replaced by addFile.
  struct RangeMemo {
    std::mutex Lock;
    std::map<std::string, VersionSet, std::less<>> ByArch;
  };
  std::shared_ptr<RangeMemo> Memo = std::make_shared<RangeMemo>();
  std::vector<ToolkitRow> Toolkits;
  std::vector<DriverFloorRow> Floors;
  std::vector<TorchRow> Torches;
  std::vector<ProvisionRow> Provisions;
  std::vector<NoProvisionRow> NoProvisions;
  std::vector<TorchHostCompilerRow> TorchCompilers;

  /// The field list of the load cache (KnowledgeBase.cpp).
  template <class C> friend void fields(C &Cd, KnowledgeBase &KB);
};

} // namespace cudadeps

#endif
