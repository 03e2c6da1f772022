//===- Emitter.h - `resolve --emit cmake|make|env`: the pre-build hooks ----===//
//
// Writes the decision for a build system to include before it compiles: the
// toolchain (nvcc, host compiler, archs, launcher), one CUDADEPS_<PACKAGE>_*
// group per decision, and for `env` each source build's computed
// environment (BuildEnvironment.h: the one definition `cudadeps build` uses
// too). When the selected source builds need different environments, `env`
// exports what they share and writes one shell function per package,
// cudadeps_env_<package>, that exports the rest. Every value is quoted for its target language
// (EmitQuoting.h); a value that cannot be expressed safely is an error
// naming the value and where it came from, and nothing is emitted.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CLI_EMITTER_H
#define CUDADEPS_CLI_EMITTER_H

#include "core/plan/BuildEnvironment.h"
#include "core/plan/Resolution.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <string>
#include <vector>

namespace cudadeps::cli {

struct EmitRequest {
  std::string Kind; // "cmake", "make" or "env"
  /// Only these packages (canonical names); empty = every package.
  std::vector<std::string> Packages;
  /// The compiler launcher chosen (a path), empty when none.
  std::string Launcher;
  /// `env`: the computed build environment of each selected source build
  /// (computeBuildEnvironment), by package name.
  std::map<std::string, std::vector<BuildVar>> BuildEnvs;
  /// `cmake`, `make`: the files and environment variables the decision
  /// rests on (manifests, knowledge base, facts file or what the probes
  /// looked at), written as CUDADEPS_INPUTS and CUDADEPS_ENV_INPUTS so a
  /// build re-runs the hook when one changes.
  std::vector<std::string> Inputs;
  std::vector<std::string> EnvInputs;
};

/// The text to include, or an error when a value cannot be written safely.
llvm::Expected<std::string> renderEmit(const Resolution &R,
                                       const EmitRequest &Req);

} // namespace cudadeps::cli

#endif
