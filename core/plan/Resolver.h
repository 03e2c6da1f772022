//===- Resolver.h - manifests + machine facts -> a buildable configuration -===//
//
// Turns a project's requirements, the package manifests and the machine's
// facts into a PubGrub problem and solves it. Facts enter the solver as
// conda's virtual packages do: every toolkit found is a candidate version of
// `nvcc`, every host compiler a candidate of `host-compiler`, fixed facts
// (torch, python, driver, ...) single versions; an absent fact is a
// first-class cause ("no nvcc was found on this machine").
//
// Compatibility knowledge becomes external facts of the solver, each with
// its own wording: nvcc <-> host compiler, GPU arch <-> nvcc, torch's CUDA
// major == nvcc major, driver floor per CUDA major, prebuilt matrices.
//
// Strategies per package, in order of preference: the newest release from
// source, its prebuilt binary, older releases (source, then prebuilt), then
// a declared fallback. The strategy is encoded in the solver version's
// epoch (0 = prebuilt, 1 = source or no-build) so that one PubGrub package
// covers every way of getting a package and ranges stay ranges.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_PLAN_RESOLVER_H
#define CUDADEPS_CORE_PLAN_RESOLVER_H

#include "core/facts/Facts.h"
#include "core/manifest/KnowledgeBase.h"
#include "core/manifest/Manifest.h"
#include "core/plan/Resolution.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace cudadeps {

/// Finds a package manifest by canonical name; nullptr when unknown.
using PackageLookup = std::function<const Package *(llvm::StringRef)>;
/// Whether a manifest package of this name exists, answered without loading
/// its manifest (a registry's index): the solver asks it of every package a
/// dependency names, most of which it never chooses.
using PackageExists = std::function<bool(llvm::StringRef)>;

struct ResolveRequest {
  /// The root of the solve: the project name (or the package's own name).
  std::string RootName = "root";
  /// What the root requires (a project's requires, or {package: any}).
  RequirementMap Requires;
  /// Target architectures declared instead of detected (--arch, then the
  /// project's [target] archs); empty = the GPUs found.
  std::vector<std::string> TargetArchs;
  std::string TargetOrigin; // "--arch" or "[target] archs in FILE"
  /// A needed fallback makes the package unsatisfiable (exit 1).
  bool NoFallback = false;
  /// How to word "no nvcc": what was searched, or that a facts file lists
  /// none ("the facts file lists no [[nvcc]]").
  std::string NvccAbsentDetail;
  /// Prebuilt URLs found not to exist (a 404 when `build` fetched them), with
  /// the reason: those binaries are not chosen again, so the package falls
  /// through to its next strategy.
  std::map<std::string, std::string> UnavailablePrebuilts;
  /// The package whose derivation text (PackageResolution::Derivation, the
  /// solver's whole proof) is written: `explain`'s. Empty: none. Every
  /// package's would cost a large registry's resolve more than its solve,
  /// and only `explain` shows it.
  std::string DerivationOf;
};

/// The Python distributions a package's releases (every release, and the
/// manifest packages they name, transitively) require, sorted: e.g.
/// "triton", "transformers", the facts that decide its version, named in
/// `explain`'s facts used. Empty for a name that is not a manifest package.
/// Asked of one package by `explain`; resolve() does not compute it.
std::vector<std::string> requiredDistributions(const PackageLookup &Lookup,
                                               llvm::StringRef Name);

/// Resolves Request against Facts. Errors only for a broken request (a
/// package manifest that cannot be used); an unsatisfiable project is a
/// Resolution with status Unsatisfiable.
/// \p Exists, when given, answers "is this a manifest package?" in place of
/// Lookup (the answers must agree).
llvm::Expected<Resolution> resolve(const ResolveRequest &Request,
                                   const PackageLookup &Lookup,
                                   const Facts &MachineFacts,
                                   const KnowledgeBase &KB,
                                   const PackageExists &Exists = nullptr);

} // namespace cudadeps

#endif
