//===- Builder.h - carry out one source decision into the build cache -----===//
//
// buildPackage() computes the cache key of a source build (BuildCache.h),
// returns the entry when it is there, and otherwise builds it under the
// key's lock: the steps of BuildPlan.h run one after another as argv in
// the computed environment, their output appended to the log under
// <cache>/logs/, compile progress parsed from the build tool's output
// ("[12/72]" from ninja, "[ 45%]" from make). Wheels are retagged with the
// build's local version and copied to the shared wheels directory. A failed
// step is a BuildFailure with the log's tail and, when the log shows one, a
// known cause; an interrupt kills the step and leaves no entry.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_BUILD_BUILDER_H
#define CUDADEPS_CORE_BUILD_BUILDER_H

#include "core/build/BuildCache.h"
#include "core/build/BuildPlan.h"
#include "core/build/FailureCause.h"
#include "core/fetch/SourceFetcher.h"
#include "core/plan/BuildEnvironment.h"
#include "core/support/Process.h"

#include "llvm/Support/Error.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cudadeps {

class BuildObserver {
public:
  virtual ~BuildObserver() = default;
  /// Step \p Index (0-based) of \p Count starts.
  virtual void onStep(llvm::StringRef Package, const BuildStep &S,
                      unsigned Index, unsigned Count) {}
  /// Compile progress: \p Done of \p Total units (Total 0 = a percentage
  /// in Done), \p Line the build tool's line.
  virtual void onCompileProgress(llvm::StringRef Package, unsigned Done,
                                 unsigned Total, llvm::StringRef Line) {}
  /// "waiting for another cudadeps building ...".
  virtual void onBuildNote(llvm::StringRef Note) {}
};

struct BuildOptions {
  std::string CacheDir;
  /// --jobs, the launcher, overrides. SrcDir/OutDir are set by the builder.
  BuildEnvironmentOptions EnvOptions;
  /// The environment the build's is layered on (the caller's).
  std::map<std::string, std::string> BaseEnv;
  std::string CMake = "cmake";
  std::string Ninja; // empty = CMake's default generator
  ProcessRunner *Runner = nullptr;
  BuildObserver *Observer = nullptr;
};

struct BuildOutcome {
  CacheEntry Entry;
  bool CacheHit = false;
  std::string LogPath; // empty for a cache hit
  std::string Key;
};

/// A step that failed.
/// The most a build step may log (stdout and stderr together); a step that
/// writes more is stopped.
inline constexpr size_t MaxStepLogBytes = 256u << 20;

class BuildFailure : public llvm::ErrorInfo<BuildFailure> {
public:
  static char ID;
  std::string Package;
  std::string Step;
  std::vector<std::string> Argv;
  int ExitCode = -1;
  /// How the step ended when it did not exit by itself ("output exceeded
  /// N bytes (stopped)", "was killed by signal 9 (Killed)").
  std::string Problem;
  std::string LogPath;
  std::string Tail; // the log's last lines
  std::optional<FailureCause> Cause;

  void log(llvm::raw_ostream &OS) const override;
  std::error_code convertToErrorCode() const override;
};

/// The key of building \p PR of \p Pkg from \p Commit on \p F: everything
/// that affects the result (see BuildCache.h), none of the paths of this
/// cache, so that caches can be shared.
llvm::Expected<CacheKey> buildKeyFor(const Package &Pkg,
                                     const PackageResolution &PR,
                                     const Facts &F, llvm::StringRef Commit,
                                     const BuildOptions &Opts);

/// Builds (or finds) \p PR of \p Pkg from the fetched sources \p Src.
llvm::Expected<BuildOutcome> buildPackage(const Package &Pkg,
                                          const PackageResolution &PR,
                                          const Facts &F,
                                          const FetchedSource &Src,
                                          const BuildOptions &Opts);

/// Parses one line of build-tool output: "[12/72] ..." (ninja) gives
/// (12, 72), "[ 45%] ..." (make) gives (45, 0).
std::optional<std::pair<unsigned, unsigned>>
parseCompileProgress(llvm::StringRef Line);

} // namespace cudadeps

#endif
