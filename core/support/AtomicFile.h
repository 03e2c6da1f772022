//===- AtomicFile.h - a file replaced whole or not at all -----------------===//
//
// Caches and generated files are written beside their final path and renamed
// over it, so a reader -- another cudadeps, CMake, Make -- sees the old file
// or the new one, never a part of one, and an interrupted write leaves
// nothing behind.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_SUPPORT_ATOMICFILE_H
#define CUDADEPS_CORE_SUPPORT_ATOMICFILE_H

#include "llvm/ADT/StringRef.h"

#include <system_error>

namespace cudadeps {

/// Writes \p Bytes to \p Path through a unique temporary file in the same
/// directory (which must exist) and a rename. On failure the temporary is
/// removed, \p Path is as it was, and the error says why.
std::error_code writeFileAtomically(llvm::StringRef Path,
                                    llvm::StringRef Bytes);

} // namespace cudadeps

#endif
