//===- OutputFile.h - files cudadeps writes for other tools to read --------===//
//
// Emitted hook files and lock files are read by build systems that rebuild
// when a file's mtime changes, so a file whose content would not change is
// left untouched, and a changed one is replaced atomically (a temporary file
// in the same directory renamed over it): a reader sees the old or the new
// content, never a part.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CLI_OUTPUTFILE_H
#define CUDADEPS_CLI_OUTPUTFILE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace cudadeps::cli {

/// Writes \p Text to \p Path unless the file already holds exactly it.
/// Returns whether the file was written.
llvm::Expected<bool> writeFileIfChanged(llvm::StringRef Path,
                                        llvm::StringRef Text);

} // namespace cudadeps::cli

#endif
