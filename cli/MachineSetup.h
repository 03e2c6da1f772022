//===- MachineSetup.h - facts, manifests and knowledge for a command --------===//
//
// What resolve, explain and probe share: the options that describe the
// machine (--facts, --set, --plugin, --refresh) and how they become Facts,
// and the options that find manifests (--registry) and the knowledge base.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CLI_MACHINESETUP_H
#define CUDADEPS_CLI_MACHINESETUP_H

#include "cli/Cli.h"
#include "core/manifest/KnowledgeBase.h"
#include "core/manifest/Registry.h"
#include "core/plugin/MachineFacts.h"
#include "core/support/Diagnostic.h"
#include "core/support/Process.h"

#include "llvm/ADT/StringMap.h"

#include <memory>

namespace cudadeps::cli {

/// --facts, --set, --plugin, --refresh.
std::vector<OptionSpec> machineOptions();

/// machineOptions() plus what every solving command takes: --registry,
/// --arch, --no-fallback.
std::vector<OptionSpec> solveOptions();

/// Gathers the facts of the machine the options describe.
llvm::Expected<MachineFacts> gatherMachineFacts(Context &Ctx,
                                                const ParsedOptions &Opts);

/// A loaded project (or package) manifest with its registry.
struct Workspace {
  Manifest Main;
  std::unique_ptr<Registry> Reg;
  KnowledgeBase KB;
  /// Finds a package: the main manifest's own package first, then the
  /// registry. The first registry error is kept (registryError()). Each
  /// name's answer is remembered: a resolve asks for the same packages
  /// many times (a registry's packages never change during one run).
  const Package *find(llvm::StringRef Name);
  /// Whether find(Name) finds a package, without loading a registry
  /// manifest that was not loaded yet (the registry's index answers).
  bool has(llvm::StringRef Name);
  /// True when a find() met a registry error.
  bool hasRegistryError() const {
    return !RegistryError.empty() || !RegistryDiags.empty();
  }
  /// That error, as it was: a located manifest error keeps its location
  /// (and is not prefixed twice when reported).
  llvm::Error registryError() const;

private:
  const Package *lookup(llvm::StringRef Name);
  /// Whether the main manifest's own package has this canonical name.
  bool isMainPackage(llvm::StringRef Canonical) const;
  llvm::StringMap<const Package *> Found;
  std::string RegistryError;
  std::vector<Diagnostic> RegistryDiags;
};

/// True when the positional arguments name a manifest file (one argument
/// that is an existing file or ends in .toml) rather than requirements.
bool namesManifestFile(llvm::ArrayRef<std::string> Inputs);

/// loadWorkspace for a manifest file, or for requirement arguments.
llvm::Expected<std::unique_ptr<Workspace>>
loadWorkspaceFor(Context &Ctx, llvm::ArrayRef<std::string> Inputs,
                 const ParsedOptions &Opts);

/// Every package a project requires has a manifest in the registry: one
/// located error per requirement that has none, each with "did you mean"
/// against the registry's package names (a misspelt `casual-conv1d`).
llvm::Error checkRequirementsHaveManifests(Workspace &W);

/// Loads MANIFEST, the registry (--registry, the project's `registry`,
/// $CUDADEPS_REGISTRY, the installed manifests) and the knowledge base.
llvm::Expected<std::unique_ptr<Workspace>>
loadWorkspace(Context &Ctx, llvm::StringRef ManifestPath,
              const ParsedOptions &Opts);

/// The same for a manifest already in memory (requirementsManifest's, or an
/// empty one: then only the registry is searched).
llvm::Expected<std::unique_ptr<Workspace>>
workspaceFor(Context &Ctx, Manifest Main, const ParsedOptions &Opts);

/// A project manifest requiring \p Requirements (PEP 508-style strings from
/// the command line, `causal-conv1d>=1.5`), read by the manifest loader so
/// they are checked as a project's `requires` would be; errors point at
/// "<command line>".
llvm::Expected<Manifest>
requirementsManifest(llvm::ArrayRef<std::string> Requirements);

} // namespace cudadeps::cli

#endif
