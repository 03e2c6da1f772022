//===- ZipModule.h - find and open libcudadeps-zip.so ----------------------===//
//
// The zip backend (core/toolkit/ZipBackend.h) is opened where a wheel is
// first read or written, from <prefix>/lib/cudadeps/libcudadeps-zip.so
// beside <prefix>/bin/ of the running executable, as the git module is
// (core/support/LoadableModule.h).
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_TOOLKIT_ZIPMODULE_H
#define CUDADEPS_CORE_TOOLKIT_ZIPMODULE_H

#include "core/toolkit/ZipBackend.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace cudadeps {

/// <dir of the executable>/../lib/cudadeps/libcudadeps-zip.so.
std::string defaultZipModulePath();

/// The backend of the module at \p Path ("" = defaultZipModulePath()),
/// opened once per path for the process and never closed.
llvm::Expected<libzip::Backend *> loadZipBackend(llvm::StringRef Path = "");

} // namespace cudadeps

#endif
