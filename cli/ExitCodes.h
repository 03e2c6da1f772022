//===- ExitCodes.h - the exit codes of DESIGN.md section 6 ----------------===//
#ifndef CUDADEPS_CLI_EXITCODES_H
#define CUDADEPS_CLI_EXITCODES_H

namespace cudadeps::cli {

enum ExitCode : int {
  ExitOk = 0,            // resolved (fallbacks allowed, and listed)
  ExitUnsatisfiable = 1, // no buildable configuration, or fallback under --no-fallback
  ExitUsage = 2,         // usage or input error
  ExitBuildFailure = 3,  // fetch or build failure
  ExitInterrupted = 130, // interrupted
};

} // namespace cudadeps::cli

#endif
