//===- GitModule.h - find and open libcudadeps-git.so
//----------------------===//
//
// The git backend (core/fetch/GitBackend.h) is opened on the first fetch, from
// <prefix>/lib/cudadeps/libcudadeps-git.so beside <prefix>/bin/ of the
// running executable: the build tree has the same layout, so build/bin/*
// finds build/lib/cudadeps/ and an installed cudadeps its own prefix
// (core/support/LoadableModule.h, which gives each way it can fail its own
// message).
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_FETCH_GITMODULE_H
#define CUDADEPS_CORE_FETCH_GITMODULE_H

#include "core/fetch/GitBackend.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace cudadeps {

/// <dir of the executable>/../lib/cudadeps/libcudadeps-git.so.
std::string defaultGitModulePath();

/// The backend of the module at \p Path ("" = defaultGitModulePath()),
/// opened once per path for the process and never closed.
llvm::Expected<libgit::Backend *> loadGitBackend(llvm::StringRef Path = "");

} // namespace cudadeps

#endif
