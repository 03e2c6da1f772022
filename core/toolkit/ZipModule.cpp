//===- ZipModule.cpp - find and open libcudadeps-zip.so --------------------===//

#include "core/toolkit/ZipModule.h"

#include "core/support/LoadableModule.h"

using namespace llvm;

namespace cudadeps {

static const ModuleKind ZipModule = {
    "zip",          "cannot read wheels",
    "libcudadeps-zip.so", "cudadeps-zip",
    libzip::BackendEntryPoint, libzip::BackendAbiVersion};

std::string defaultZipModulePath() { return defaultModulePath(ZipModule); }

Expected<libzip::Backend *> loadZipBackend(StringRef Path) {
  return loadModuleBackend<libzip::Backend>(ZipModule, Path);
}

} // namespace cudadeps
