//===- ManifestCodec.h - a validated manifest as bytes, and back ----------===//
//
// What the load cache (core/support/LoadCache.h) keeps of a registry
// manifest: the Manifest exactly as loadManifest() returned it (source text,
// warnings and every location included), so that a cached manifest and a
// parsed one are the same to everything that uses them.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_MANIFEST_MANIFESTCODEC_H
#define CUDADEPS_CORE_MANIFEST_MANIFESTCODEC_H

#include "core/manifest/Manifest.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace cudadeps {

std::string encodeManifest(const Manifest &M);

/// The manifest \p Blob holds, as loaded from \p File (its File and the
/// locations in it name \p File); nullopt when \p Blob is not a whole
/// encoded manifest. Never crashes on any bytes.
std::optional<Manifest> decodeManifest(llvm::StringRef Blob,
                                       llvm::StringRef File);

} // namespace cudadeps

#endif
