//===- Prepared.h - the resolve step that resolve, explain and build share -===//
#ifndef CUDADEPS_CLI_PREPARED_H
#define CUDADEPS_CLI_PREPARED_H

#include "cli/MachineSetup.h"
#include "core/plan/Resolver.h"

#include <memory>

namespace cudadeps::cli {

/// A resolve from the options: what it was asked and what it decided.
struct Prepared {
  std::unique_ptr<Workspace> W;
  MachineFacts Machine;
  ResolveRequest Request;
  Resolution Result;
};

/// Hands \p P's workspace and resolution to the process when \p Ctx says
/// it ends after this command: freeing thousands of manifests piece by
/// piece is a large registry's teardown (llvm::BuryPointer keeps them
/// reachable, so leak checkers stay quiet).
void keepUntilExit(Context &Ctx, Prepared &P);

/// Loads the manifest (or makes one from requirement arguments: \p Inputs
/// are the positionals), gathers the facts and resolves; the derivation
/// text is written for the package \p DerivationOf only (`explain`'s;
/// ResolveRequest::DerivationOf).
llvm::Expected<Prepared> prepareAndResolve(Context &Ctx,
                                           const ParsedOptions &Opts,
                                           llvm::ArrayRef<std::string> Inputs,
                                           llvm::StringRef DerivationOf = {});

} // namespace cudadeps::cli

#endif
