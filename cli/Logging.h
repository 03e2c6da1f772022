//===- Logging.h - spdlog set up once, to stderr ---------------------------===//
#ifndef CUDADEPS_CLI_LOGGING_H
#define CUDADEPS_CLI_LOGGING_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace cudadeps::cli {

/// Logs go to stderr (never stdout: it carries results and JSON). Verbosity
/// 0 = warnings, 1 = info+debug, 2+ = trace. A non-empty LogFile adds a sink
/// that receives everything at debug level or above.
llvm::Error setupLogging(unsigned Verbosity, llvm::StringRef LogFile);

} // namespace cudadeps::cli

#endif
