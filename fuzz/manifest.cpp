//===- manifest.cpp - fuzz package manifests and project files ------------===//
//
// parseManifest() is what `resolve`, `lint` and the registry read every
// manifest with; lintManifest() runs on what it accepts, as `lint` does.
//
//===----------------------------------------------------------------------===//
#include "FuzzSupport.h"

#include "core/manifest/ManifestLoader.h"

using namespace cudadeps;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::Expected<Manifest> M =
      parseManifest(fuzz::asText(Data, Size), "/fuzz/cudadeps.toml");
  if (Manifest *Parsed = fuzz::valueOrNull(M))
    fuzz::consume(lintManifest(*Parsed));
  return 0;
}
