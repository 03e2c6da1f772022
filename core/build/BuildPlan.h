//===- BuildPlan.h - the steps of one package's build, as argv ------------===//
//
// A source decision becomes a list of steps, each an argv with a working
// directory (run without a shell, in the computed BuildEnvironment):
//
//   torch-extension  python -m pip wheel --no-build-isolation --no-deps -v
//                    SRC -w OUT          (the facts' Python)
//   cmake            cmake -S SRC -B WORK/build [-G Ninja] -DCMAKE_...=...
//                    [cmake_args]; cmake --build ... -j N; cmake --install
//                    ... --prefix OUT
//   command          [build] command, templated, in SRC
//
// The plan also says which archs are compiled and what choosing them saves:
// a package whose recipe takes its arch list from cudadeps (an arch
// placeholder in its knobs, arguments or command; cmake through
// CMAKE_CUDA_ARCHITECTURES) compiles only the needed archs; a
// torch-extension without one compiles its own hard-coded list (the release
// archs the toolkit supports), and the plan says so and what it costs.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_BUILD_BUILDPLAN_H
#define CUDADEPS_CORE_BUILD_BUILDPLAN_H

#include "core/manifest/Manifest.h"
#include "core/plan/BuildEnvironment.h"
#include "core/plan/Resolution.h"

#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace cudadeps {

struct BuildStep {
  std::string Name; // "configure", "compile", "install", "wheel", "command"
  std::vector<std::string> Argv;
  std::string WorkingDir;
};

struct ArchChoice {
  /// The archs the build compiles.
  std::vector<std::string> Compiled;
  /// The archs a full build (every release arch the toolkit supports)
  /// compiles; empty when the release declares none.
  std::vector<std::string> Full;
  /// False when the package's setup.py hard-codes its list.
  bool Selectable = true;
  /// The estimated share of the full build not compiled, 0..1 (one arch
  /// costs about the same as another); nullopt when Full is unknown.
  std::optional<double> Saved;
  /// One line for the plan: "sm_90 of 12 release archs (about 92% of the
  /// full build saved)".
  std::string Note;
};

struct BuildPaths {
  std::string Src;     // the checked-out sources
  std::string Out;     // the artifact directory (the entry's out/)
  std::string Work;    // scratch (cmake's build tree)
  std::string Python;  // the facts' Python, for torch-extension
  std::string CMake = "cmake";
  /// Ninja for cmake's generator; empty = CMake's default generator.
  std::string Ninja;
};

/// The steps of building \p Pkg as decided in \p PR. Templates in the
/// recipe are expanded with \p Env's placeholders.
llvm::Expected<std::vector<BuildStep>>
planBuildSteps(const Package &Pkg, const PackageResolution &PR,
               const BuildEnvironment &Env, const BuildPaths &Paths);

/// Which archs the build compiles and what that saves.
ArchChoice chooseArchs(const Package &Pkg, const PackageResolution &PR);

} // namespace cudadeps

#endif
