//===- Cli.h - the cudadeps command line over the core library -------------===//
#ifndef CUDADEPS_CLI_CLI_H
#define CUDADEPS_CLI_CLI_H

#include "cli/Options.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace cudadeps::cli {

/// What every subcommand gets: its streams and where cudadeps is installed.
class PrintableStream;

struct Context {
  llvm::raw_ostream &Out; // results (stdout)
  llvm::raw_ostream &Err; // diagnostics (stderr)
  std::string Prefix;     // install prefix: <prefix>/bin/cudadeps
  bool Color = false;     // colour on stdout (a TTY and no NO_COLOR)
  /// Set when Out and Err are PrintableStreams (cli/PrintableStream.h).
  PrintableStream *OutFilter = nullptr;
  PrintableStream *ErrFilter = nullptr;
  /// False when the process ends after the command (main): a command may
  /// then leave what it loaded unfreed (see keepUntilExit).
  bool FreeOnReturn = true;

  /// <prefix>/share/cudadeps/manifests
  std::string installedRegistry() const;
  /// <prefix>/lib/cudadeps/plugins
  std::string installedPluginDir() const;
};

struct Command {
  llvm::StringRef Name;
  llvm::StringRef Summary;
  llvm::StringRef Usage; // "MANIFEST..."
  llvm::StringRef Description;
  llvm::ArrayRef<OptionSpec> (*Options)();
  int (*Run)(Context &, const ParsedOptions &);
};

/// The subcommand table (cli/Commands.cpp).
llvm::ArrayRef<Command> commands();

/// Runs cudadeps with Args (without argv[0]); returns the exit code.
int run(llvm::ArrayRef<std::string> Args, Context &Ctx);

/// Prints an error the way cudadeps prints errors and returns its exit code:
/// located diagnostics as they are, anything else as "cudadeps: error: ...".
int reportError(llvm::Error E, Context &Ctx, int Code = 2);

} // namespace cudadeps::cli

#endif
