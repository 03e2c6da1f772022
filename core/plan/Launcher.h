//===- Launcher.h - the compiler launcher a build goes through -------------===//
//
// Compilations can go through a launcher (ccache, sccache: compile caches,
// and sccache's distributed mode), DESIGN.md section 8. The choice is one
// word: "none", "auto" (ccache, else sccache, when on PATH), a program name
// looked up on PATH, or a path to an executable.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_PLAN_LAUNCHER_H
#define CUDADEPS_CORE_PLAN_LAUNCHER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace cudadeps {

/// The launcher's path for \p Choice, "" for none (or "auto" with neither
/// installed). \p SearchPath is the colon-separated PATH. A named launcher
/// that is not found, or a path that is not executable, is an error.
llvm::Expected<std::string> chooseLauncher(llvm::StringRef Choice,
                                           llvm::StringRef SearchPath);

} // namespace cudadeps

#endif
