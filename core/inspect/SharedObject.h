//===- SharedObject.h - what an ELF shared object links and carries -------===//
//
// Reads an installed extension module (or a library it links) with LLVM's
// Object library, without loading it: the libraries it needs (DT_NEEDED), its
// run paths, the dynamic symbols it needs from others and the ones it
// exports, which CUDA runtime it links (libcudart.so.N, or a static cudart),
// and the GPU code of its fatbinaries (Fatbin.h).
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_INSPECT_SHAREDOBJECT_H
#define CUDADEPS_CORE_INSPECT_SHAREDOBJECT_H

#include "core/inspect/Fatbin.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace cudadeps {

struct SharedObject {
  std::string Path;
  std::vector<std::string> Needed;   // DT_NEEDED, in order
  std::vector<std::string> RunPaths; // DT_RUNPATH, else DT_RPATH entries
  /// Dynamic symbols it needs from other objects (undefined, not weak): a
  /// missing one fails the load with "undefined symbol".
  std::vector<std::string> Undefined;
  /// Dynamic symbols it defines for others (global or weak binding, default
  /// or protected visibility). Only read with ReadExports.
  std::vector<std::string> Exported;
  /// The N of a DT_NEEDED libcudart.so.N.
  std::optional<unsigned> CudartSoname;
  /// No libcudart is needed but there is device code: cudart is linked in
  /// statically (nvcc's default, --cudart static).
  bool StaticCudart = false;
  /// The GPU code of its fatbinaries. Only read with ReadDeviceCode.
  std::vector<FatbinEntry> DeviceCode;
  /// Why the fatbinary could not be read (the rest of the object was).
  std::string DeviceCodeError;
};

enum ReadParts : unsigned {
  ReadLinkage = 0,        // needed libraries, run paths, undefined symbols
  ReadExports = 1 << 0,   // + the exported symbols
  ReadDeviceCode = 1 << 1 // + the fatbinaries
};

/// The largest shared object read (libtorch_cuda.so is about 1.5 GB).
inline constexpr size_t MaxSharedObjectBytes = size_t(4) << 30;

/// Reads the ELF file at \p Path (32 or 64 bit, little or big endian). A
/// file that is not ELF, or whose tables do not read, is an error naming it;
/// so is anything but a regular file, or a file over MaxSharedObjectBytes.
llvm::Expected<SharedObject> readSharedObject(llvm::StringRef Path,
                                              unsigned Parts);

/// The outermost C++ namespace of an Itanium-mangled name ("c10" for
/// _ZN3c105ErrorC2ENS_14SourceLocationESs, also through vtables, typeinfo
/// and const members); "" for a C name or the std namespace.
std::string outerNamespace(llvm::StringRef Mangled);

/// The demangled form of \p Mangled (itself when it is not a C++ name).
std::string demangledName(llvm::StringRef Mangled);

} // namespace cudadeps

#endif
