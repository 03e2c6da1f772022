//===- Resolution.h - what cudadeps decided for each package ---------------===//
//
// The result of resolving a project against a machine: per package the
// chosen release and strategy (source build, prebuilt binary, no build,
// declared fallback, or unsatisfiable), the toolchain a build uses, the
// architectures it compiles, and the reasons and hints that explain every
// decision. Rendering (text, JSON, emitters) lives in cli/.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_PLAN_RESOLUTION_H
#define CUDADEPS_CORE_PLAN_RESOLUTION_H

#include "core/facts/Facts.h"
#include "core/version/Version.h"

#include "llvm/ADT/StringRef.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cudadeps {

enum class Strategy { Source, Prebuilt, NoBuild, Fallback, Unsatisfiable };

/// "source", "prebuilt", "no-build", "fallback", "unsatisfiable".
llvm::StringRef strategyName(Strategy S);

struct ChosenFallback {
  std::string Name;
  std::string Summary;
  std::string Impact;
  std::vector<std::pair<std::string, std::string>> Env; // to select it
};

struct PackageResolution {
  std::string Name;
  bool Requested = false; // named by the project (else transitive)
  std::optional<Version> Ver;
  Strategy How = Strategy::Unsatisfiable;
  std::optional<NvccFacts> Nvcc;         // source builds that compile
  std::optional<CompilerFacts> Compiler; // source builds that compile
  std::vector<std::string> Archs;        // compiled: target ∩ release ∩ nvcc
  /// The release lists no archs and no targets were declared: the build
  /// script chooses (Archs is empty).
  bool ArchsUnknown = false;
  std::optional<std::string> PrebuiltUrl;
  std::optional<ChosenFallback> Fallback;
  /// What was preferred and not chosen ("causal-conv1d 1.6.1 from source"),
  /// empty when the preferred configuration was chosen or for a fallback.
  std::string NotPreferred;
  /// Why this package is not built from source with its newest release,
  /// one reason per line ("no nvcc was found on this machine (...)").
  std::vector<std::string> Because;
  /// Why toolkits or compilers found on the machine were not chosen.
  std::vector<std::string> NotChosen;
  /// The exact fixes, one per line.
  std::vector<std::string> Hints;
  /// The full PubGrub derivation of why the preferred configuration failed,
  /// for `cudadeps explain`: written only for the package the request names
  /// (ResolveRequest::DerivationOf), empty otherwise and when nothing failed.
  std::string Derivation;
};

enum class ResolveStatus { Resolved, Fallback, Unsatisfiable };

/// "resolved", "fallback", "unsatisfiable".
llvm::StringRef statusName(ResolveStatus S);

struct Resolution {
  ResolveStatus Status = ResolveStatus::Resolved;
  std::vector<PackageResolution> Packages;
  /// The GPU architectures builds target, and where they came from
  /// ("--arch", "[target] archs", "GPUs found", or empty when none).
  std::vector<std::string> TargetArchs;
  std::string TargetOrigin;
  std::vector<std::string> Warnings;
  /// The host compiler nvcc runs without -ccbin ($NVCC_CCBIN, else g++ on
  /// PATH), when the facts say.
  std::optional<CompilerFacts> NvccDefaultCompiler;
  /// What the solve built (the solver with its learned incompatibilities
  /// and the provider's view of every package it asked about), owned here
  /// so that it goes away with the resolution: a process about to exit can
  /// leave the whole resolution unfreed (llvm::BuryPointer) and skip the
  /// teardown of a large solve.
  std::shared_ptr<const void> SolveState;

  const PackageResolution *find(llvm::StringRef Name) const;
};

} // namespace cudadeps

#endif
