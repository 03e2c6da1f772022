//===- Consistency.h - a manifest's data checked against the knowledge base ===//
//
// Checks that need the CUDA knowledge base (manifests/cuda), run by
// `cudadeps lint` after lintManifest():
//  - every arch of a release's `archs` can be compiled by some nvcc the
//    release accepts: KB.nvccRangeForArch(arch) meets the release's nvcc
//    requirement intersected with KB.knownRange();
//  - every torch and every CUDA major of a [release.prebuilt] matrix pairs
//    with something: a torch minor none of whose published CUDA majors is in
//    the matrix (or a CUDA major no torch of the matrix was published for)
//    names only binaries that cannot exist.
// Combinations of the matrix that cannot exist while each dimension value
// still has a partner are normal (CI excludes them); `cudadeps matrix`
// leaves them out.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_MANIFEST_CONSISTENCY_H
#define CUDADEPS_CORE_MANIFEST_CONSISTENCY_H

#include "core/manifest/KnowledgeBase.h"
#include "core/manifest/Manifest.h"

#include "llvm/Support/Error.h"

#include <vector>

namespace cudadeps {

/// The checks above. Errors come as one DiagnosticError sorted by position;
/// warnings (a torch minor the knowledge base does not list, so its pairs
/// are not checked) are appended to \p Warnings when given.
llvm::Error checkConsistency(const Manifest &M, const KnowledgeBase &KB,
                             std::vector<Diagnostic> *Warnings = nullptr);

/// The CUDA major of a prebuilt matrix entry ("12" or "12.9" -> 12).
uint64_t cudaMajorOf(const Version &Cuda);

} // namespace cudadeps

#endif
