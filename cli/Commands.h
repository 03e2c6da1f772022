//===- Commands.h - one function pair per subcommand ----------------------===//
//
// Each subcommand lives in cli/Cmd<Name>.cpp and exposes its option table and
// its entry point; cli/Commands.cpp lists them in one explicit table.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CLI_COMMANDS_H
#define CUDADEPS_CLI_COMMANDS_H

#include "cli/Cli.h"
#include "core/plugin/PluginLoader.h"

namespace cudadeps::cli {

llvm::ArrayRef<OptionSpec> lintOptions();
int runLint(Context &Ctx, const ParsedOptions &Opts);

llvm::ArrayRef<OptionSpec> resolveOptions();
int runResolve(Context &Ctx, const ParsedOptions &Opts);

llvm::ArrayRef<OptionSpec> buildOptions();
int runBuild(Context &Ctx, const ParsedOptions &Opts);
int runInstall(Context &Ctx, const ParsedOptions &Opts);

llvm::ArrayRef<OptionSpec> explainOptions();
int runExplain(Context &Ctx, const ParsedOptions &Opts);

llvm::ArrayRef<OptionSpec> probeOptions();
int runProbe(Context &Ctx, const ParsedOptions &Opts);

llvm::ArrayRef<OptionSpec> pluginsOptions();
int runPlugins(Context &Ctx, const ParsedOptions &Opts);

llvm::ArrayRef<OptionSpec> matrixOptions();
int runMatrix(Context &Ctx, const ParsedOptions &Opts);

llvm::ArrayRef<OptionSpec> doctorOptions();
int runDoctor(Context &Ctx, const ParsedOptions &Opts);

llvm::ArrayRef<OptionSpec> toolkitOptions();
int runToolkit(Context &Ctx, const ParsedOptions &Opts);

/// Prints "cudadeps: error: ..." for each load failure of a plugin named by
/// --plugin (\p PluginArgs) and returns true if there was one; failures of
/// plugins found on $CUDADEPS_PLUGIN_PATH or installed are left to the caller.
bool reportPluginFailures(Context &Ctx,
                          const std::vector<PluginLoadFailure> &Failures,
                          llvm::ArrayRef<std::string> PluginArgs);

} // namespace cudadeps::cli

#endif
