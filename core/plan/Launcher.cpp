//===- Launcher.cpp - the compiler launcher a build goes through -----------===//
#include "core/plan/Launcher.h"

#include "core/support/Process.h"

#include "llvm/Support/FileSystem.h"

using namespace llvm;

namespace cudadeps {

Expected<std::string> chooseLauncher(StringRef Choice, StringRef SearchPath) {
  if (Choice.empty() || Choice == "none")
    return std::string();
  if (Choice == "auto") {
    for (StringRef Name : {"ccache", "sccache"}) {
      std::string P = findProgramInPath(Name, SearchPath);
      if (!P.empty())
        return P;
    }
    return std::string();
  }
  if (Choice.contains('/')) {
    if (!sys::fs::can_execute(Choice) || sys::fs::is_directory(Choice))
      return createStringError(inconvertibleErrorCode(),
                               "the launcher " + Choice +
                                   " is not an executable file");
    return Choice.str();
  }
  std::string P = findProgramInPath(Choice, SearchPath);
  if (P.empty())
    return createStringError(inconvertibleErrorCode(),
                             "the launcher '" + Choice +
                                 "' was not found on PATH");
  return P;
}

} // namespace cudadeps
