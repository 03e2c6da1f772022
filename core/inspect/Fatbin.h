//===- Fatbin.h - the GPU code inside a CUDA fatbinary --------------------===//
//
// A host object built by nvcc carries its device code in the `.nv_fatbin`
// section (`__nv_relfatbin` for relocatable device code): one or more
// fatbinaries, each a 16-byte header (magic 0xBA55ED50, version, header
// size, size of the entries) followed by entries. Each entry has its own
// header: kind (1 = PTX, 2 = ELF cubin), header size, payload size, the PTX
// ISA version (PTX entries), the compute capability number (80 for sm_80 /
// compute_80) and flags (0x100000: an `a` architecture-specific target,
// 0x200000: an `f` family-specific target; 0x2000/0x8000: compressed). The
// layout is not documented by NVIDIA; it is read as nvcc 12/13 write it and
// checked in tests against what the real nvcc was asked to compile (and
// against cuobjdump where it is installed).
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_INSPECT_FATBIN_H
#define CUDADEPS_CORE_INSPECT_FATBIN_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace cudadeps {

struct FatbinEntry {
  enum class Kind { Ptx, Cubin };
  Kind What = Kind::Cubin;
  unsigned Arch = 0; // 90 for sm_90 / compute_90, 120 for sm_120
  char Variant = 0;  // 0, 'a' (arch-specific) or 'f' (family-specific)
  bool Compressed = false;
  /// PTX entries: the PTX ISA version ("9.0").
  std::string PtxIsa;
  /// The toolkit release that compiled it ("13.0"), read from an
  /// uncompressed cubin's .note.nv.tkinfo text; empty when not known.
  std::string ToolkitRelease;

  /// "sm_90a" for a cubin, "compute_90" for PTX.
  std::string name() const;
  bool operator==(const FatbinEntry &) const = default;
};

/// The entries of every fatbinary in \p Section (the bytes of `.nv_fatbin`
/// or `__nv_relfatbin`), in order. Zero padding between fatbinaries is
/// skipped. Anything else that does not read as a fatbinary (a wrong magic,
/// a size past the end, an entry header too small) is an error naming the
/// offset; nothing is read outside \p Section.
llvm::Expected<std::vector<FatbinEntry>> parseFatbin(llvm::StringRef Section);

/// Whether code in \p Entries can run on a GPU of compute capability
/// \p Gpu (90 for 9.0):
///  - Native: a cubin for the same major and a minor <= the GPU's (sm_80
///    runs on 8.6); an `a` cubin only on exactly its capability, an `f`
///    cubin on its family (same major, minor >=);
///  - Jit: no such cubin, but PTX for a capability <= the GPU's (an `a`
///    PTX only for exactly its capability, `f` only within its major),
///    which the driver compiles at first launch;
///  - None: the kernels will not load ("no kernel image is available").
enum class GpuFit { Native, Jit, None };
struct GpuFitResult {
  GpuFit Fit = GpuFit::None;
  const FatbinEntry *By = nullptr; // the entry that runs (Native/Jit)
};
GpuFitResult fitForGpu(llvm::ArrayRef<FatbinEntry> Entries, unsigned Gpu);

/// The distinct names of \p Entries of kind \p K, in ascending arch order.
std::vector<std::string> entryNames(llvm::ArrayRef<FatbinEntry> Entries,
                                    FatbinEntry::Kind K);

} // namespace cudadeps

#endif
