//===- Pip.h - what cudadeps asks of the facts' Python's pip ---------------===//
//
// Prebuilt wheels are fetched with `python -m pip download --no-deps` (so
// the user's proxy, index and certificate settings apply; file:// URLs work
// for tests and mirrors) into <cache>/downloads/<hash of the URL>/, made
// atomically, and reused offline. Installing is `python -m pip install
// --no-deps` of wheels or of pinned requirements, nothing else.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_BUILD_PIP_H
#define CUDADEPS_CORE_BUILD_PIP_H

#include "core/support/Process.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <string>
#include <vector>

namespace cudadeps {

/// A published URL that does not exist (HTTP 404, a missing file://).
class PrebuiltNotFound : public llvm::ErrorInfo<PrebuiltNotFound> {
public:
  static char ID;
  PrebuiltNotFound(std::string Url, std::string Detail)
      : Url(std::move(Url)), Detail(std::move(Detail)) {}
  void log(llvm::raw_ostream &OS) const override;
  std::error_code convertToErrorCode() const override;
  std::string Url;
  std::string Detail; // pip's line that says so
};

struct PipOptions {
  std::string Python;
  std::string CacheDir;
  bool Offline = false;
  std::map<std::string, std::string> Env; // the child's environment
  /// pip download's target: --python-version, --platform, ... from the
  /// facts, so that a wheel for the machine described is accepted.
  std::vector<std::string> TargetArgs;
  ProcessRunner *Runner = nullptr;
};

/// The directory a prebuilt URL is downloaded into.
std::string downloadDirFor(llvm::StringRef Url, llvm::StringRef CacheDir);

/// The wheel of \p Url, downloaded or found in the cache. A URL that does
/// not exist is a PrebuiltNotFound; offline, one not in the cache is an
/// error that names it.
llvm::Expected<std::string> fetchPrebuilt(llvm::StringRef Url,
                                          const PipOptions &Opts);

/// python -m pip download --no-deps --dest DEST [target] URL
std::vector<std::string> pipDownloadArgv(const PipOptions &Opts,
                                         llvm::StringRef Url,
                                         llvm::StringRef Dest);

/// python -m pip install --no-deps ARGS... (wheel paths or name==version);
/// offline with --no-index and the cache's wheels as --find-links.
std::vector<std::string> pipInstallArgv(const PipOptions &Opts,
                                        llvm::ArrayRef<std::string> Args,
                                        llvm::StringRef WheelsDir);

/// Runs a pip command; an error with pip's last lines when it fails.
llvm::Error runPip(const std::vector<std::string> &Argv,
                   const PipOptions &Opts, llvm::StringRef What);

} // namespace cudadeps

#endif
