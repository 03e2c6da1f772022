//===- LoadableModule.h - open a cudadeps module (dlopen) on demand --------===//
//
// Libraries that only a few commands need (libgit2 for fetching, libzip for
// reading NVIDIA's wheels) live in modules of their own under
// <prefix>/lib/cudadeps/, beside <prefix>/bin/ of the running executable (the
// build tree has the same layout), so that the dynamic loader does not map
// and relocate them at every start. A module exports one extern "C" entry
// point, `Backend *entry(int AbiVersion)`, that returns null for a version
// other than its own. Each way opening one can fail has its own message: the
// file cannot be loaded (dlerror), it is not that kind of cudadeps module (no
// entry point), or it belongs to another build of cudadeps (the version
// differs).
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_SUPPORT_LOADABLEMODULE_H
#define CUDADEPS_CORE_SUPPORT_LOADABLEMODULE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace cudadeps {

/// What a module is and what is lost without it (for the messages).
struct ModuleKind {
  const char *Name;       // "git": "the git module ..."
  const char *Purpose;    // "cannot fetch": the start of every message
  const char *FileName;   // "libcudadeps-git.so"
  const char *Target;     // "cudadeps-git": the build target that makes it
  const char *EntryPoint; // "cudadeps_git_backend"
  int AbiVersion;
};

/// <dir of the executable>/../lib/cudadeps/<Kind.FileName>.
std::string defaultModulePath(const ModuleKind &Kind);

/// Calls an entry point of its own type (a call through another function
/// type is undefined, and UBSan's -fsanitize=function reports it).
using EntryCall = void *(*)(void *Symbol, int AbiVersion);
template <typename BackendT> void *callEntry(void *Symbol, int AbiVersion) {
  return reinterpret_cast<BackendT *(*)(int)>(Symbol)(AbiVersion);
}

/// What the entry point of the module at \p Path ("" = defaultModulePath())
/// returned, opened once per path and kind for the process and never
/// closed.
llvm::Expected<void *> loadModule(const ModuleKind &Kind, EntryCall Call,
                                  llvm::StringRef Path = "");

/// The backend of a module whose entry point returns a BackendT *.
template <typename BackendT>
llvm::Expected<BackendT *> loadModuleBackend(const ModuleKind &Kind,
                                             llvm::StringRef Path = "") {
  llvm::Expected<void *> B = loadModule(Kind, callEntry<BackendT>, Path);
  if (!B)
    return B.takeError();
  return static_cast<BackendT *>(*B);
}

} // namespace cudadeps

#endif
