//===- GitModule.cpp - find and open libcudadeps-git.so
//--------------------===//

#include "core/fetch/GitModule.h"

#include "core/support/LoadableModule.h"

using namespace llvm;

namespace cudadeps {

static const ModuleKind GitModule = {
    "git",          "cannot fetch",
    "libcudadeps-git.so", "cudadeps-git",
    libgit::BackendEntryPoint, libgit::BackendAbiVersion};

std::string defaultGitModulePath() { return defaultModulePath(GitModule); }

Expected<libgit::Backend *> loadGitBackend(StringRef Path) {
  return loadModuleBackend<libgit::Backend>(GitModule, Path);
}

} // namespace cudadeps
