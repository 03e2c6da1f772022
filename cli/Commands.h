//===- Commands.h - one function pair per subcommand ----------------------===//
//
// Each subcommand lives in cli/Cmd<Name>.cpp and exposes its option table and
// its entry point; cli/Commands.cpp lists them in one explicit table.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CLI_COMMANDS_H
#define CUDADEPS_CLI_COMMANDS_H

#include "cli/Cli.h"

namespace cudadeps::cli {

llvm::ArrayRef<OptionSpec> lintOptions();
int runLint(Context &Ctx, const ParsedOptions &Opts);

} // namespace cudadeps::cli

#endif
