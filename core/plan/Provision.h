//===- Provision.h - which toolkit `--provision` assembles, and for what ---===//
//
// `cudadeps build/install --provision`: when compiling packages are left
// without a build (a fallback or no configuration) and the knowledge base
// says a toolkit can be assembled without root (manifests/cuda/
// provisioning.toml), the choice is the one matching torch's CUDA major, and
// its minor where the data has it (without torch, the driver's CUDA). The
// resolution is then asked again with that toolkit added to the facts: it is
// provisioned only when it lets a package build from source.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_PLAN_PROVISION_H
#define CUDADEPS_CORE_PLAN_PROVISION_H

#include "core/facts/Facts.h"
#include "core/manifest/KnowledgeBase.h"
#include "core/plan/Resolver.h"

#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace cudadeps {

struct ProvisionChoice {
  /// What `cudadeps toolkit install` is given: "13.0" (or "13").
  std::string Request;
  const ProvisionRow *Row = nullptr;
  /// Why this version: "torch 2.11.0+cu130 is built with CUDA 13.0".
  std::string Why;
  /// Packages left without a build now that it lets build from source.
  std::vector<std::string> For;
  /// The resolution once it is there.
  Resolution After;
};

/// Packages of \p R that compile and have no build (fallback or none).
std::vector<std::string> packagesWithoutBuild(const Resolution &R,
                                              const PackageLookup &Lookup);

/// The nvcc facts of a toolkit provisioned from \p Row into \p Root (the
/// nvcc probe finds the same there once it is installed).
NvccFacts provisionedNvcc(const ProvisionRow &Row, llvm::StringRef Root,
                          const KnowledgeBase &KB);

/// The toolkit to provision for \p Before, or why there is none (an error
/// whose message says it; nothing to provision is not an error: nullopt).
/// \p Store is where `toolkit install` puts toolkits.
llvm::Expected<std::optional<ProvisionChoice>>
chooseProvision(const ResolveRequest &Req, const PackageLookup &Lookup,
                const Facts &F, const KnowledgeBase &KB,
                const Resolution &Before, llvm::StringRef Store);

} // namespace cudadeps

#endif
