//===- PythonEnvironments.h - Python environments found by reading files --===//
//
// Finds the Python environments a build could use ($VIRTUAL_ENV,
// $CONDA_PREFIX, python3 on $PATH) and their site-packages directories
// without starting Python: the prefix comes from the variable or from the
// interpreter's location (<prefix>/bin/python3, first as found, then with
// symlinks resolved), the version from pyvenv.cfg, conda-meta/python-*.json,
// the interpreter's file name (python3.12) or the lib/python3.X directory.
// Used by the cuda-runtime probe (torch, packages) and the nvcc probe (NVIDIA's
// pip wheels).
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_PLUGINS_CUDA_RUNTIME_PYTHONENVIRONMENTS_H
#define CUDADEPS_PLUGINS_CUDA_RUNTIME_PYTHONENVIRONMENTS_H

#include "core/plugin/ProbeInputs.h"
#include "core/support/Process.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace cudadeps::probes {

struct PythonEnvironment {
  std::string Prefix;      // "/home/u/venv"
  std::string FoundVia;    // "$VIRTUAL_ENV", "$CONDA_PREFIX", "python3 on $PATH"
  std::string Interpreter; // "<prefix>/bin/python3"; "" when none exists
  /// Existing site-packages / dist-packages directories, most specific first.
  std::vector<std::string> SitePackages;
  /// "3.12.3" (pyvenv.cfg, conda-meta) or "3.12" (file names); nullopt when
  /// the layout does not say.
  std::optional<std::string> Version;
  std::string VersionFrom; // the file or directory the version was read from
  /// Files whose change would change this description (for probe caches).
  std::vector<std::string> Inputs;
};

/// The environments in priority order ($VIRTUAL_ENV, $CONDA_PREFIX, python3 on
/// $PATH), de-duplicated by real prefix. An interpreter whose layout cannot be
/// read (a pyenv shim) is still listed, with no site-packages. The search of
/// $PATH for python3 is added to \p Searches (what a cached answer rests on).
std::vector<PythonEnvironment>
findPythonEnvironments(const Environment &Env,
                       std::vector<PathSearch> &Searches);

/// Reads \p Prefix as an environment (exposed for tests and for the
/// interpreter fallback of the cuda-runtime probe).
PythonEnvironment describePythonPrefix(llvm::StringRef Prefix,
                                       llvm::StringRef FoundVia,
                                       llvm::StringRef Interpreter);

} // namespace cudadeps::probes

#endif
