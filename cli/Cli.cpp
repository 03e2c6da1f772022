#include "cli/Cli.h"

#include "cli/ExitCodes.h"
#include "cli/Logging.h"
#include "core/support/Diagnostic.h"
#include "core/support/Printable.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace cudadeps::cli {

std::string Context::installedRegistry() const {
  SmallString<256> P(Prefix);
  sys::path::append(P, "share", "cudadeps", "manifests");
  return std::string(P);
}

std::string Context::installedPluginDir() const {
  SmallString<256> P(Prefix);
  sys::path::append(P, "lib", "cudadeps", "plugins");
  return std::string(P);
}

int reportError(Error E, Context &Ctx, int Code) {
  handleAllErrors(
      std::move(E),
      [&](const DiagnosticError &D) {
        for (const Diagnostic &Diag : D.diagnostics())
          Ctx.Err << Diag.render();
      },
      [&](const ErrorInfoBase &Info) {
        Ctx.Err << "cudadeps: error: "
                << printableText(Info.message(), /*KeepLineBreaks=*/true)
                << '\n';
      });
  return Code;
}

static void printMainHelp(raw_ostream &OS) {
  OS << "cudadeps - resolve, fetch and build CUDA extensions for this machine\n\n"
        "usage: cudadeps [-v|-vv] COMMAND [OPTIONS] [ARGS]\n\n"
        "commands:\n";
  for (const Command &C : commands())
    OS << "  " << left_justify(C.Name, 10) << ' ' << C.Summary << '\n';
  OS << "\n"
        "global options:\n"
        "  -h, --help       show help (`cudadeps COMMAND --help` for a command)\n"
        "  --version        print the version and exit\n"
        "  -v, -vv          more log output on stderr\n\n"
        "exit codes: 0 resolved (fallbacks listed), 1 no buildable "
        "configuration,\n"
        "            2 usage or input error, 3 fetch or build failure, 130 "
        "interrupted\n";
}

static void printCommandHelp(const Command &C, raw_ostream &OS) {
  OS << "usage: cudadeps " << C.Name;
  if (!C.Usage.empty())
    OS << ' ' << C.Usage;
  OS << "\n\n" << C.Summary << ".\n";
  if (!C.Description.empty())
    OS << '\n' << C.Description << '\n';
  OS << "\noptions:\n" << formatOptionHelp(C.Options());
  OS << formatOptionHelp(commonOptions());
}

int run(ArrayRef<std::string> Args, Context &Ctx) {
  // Global options may precede the command.
  unsigned Verbosity = 0;
  size_t I = 0;
  for (; I < Args.size(); ++I) {
    StringRef A = Args[I];
    if (A == "-v" || A == "--verbose")
      ++Verbosity;
    else if (A == "-vv")
      Verbosity += 2;
    else
      break;
  }
  if (I == Args.size()) {
    printMainHelp(Ctx.Err);
    return ExitUsage;
  }
  StringRef Name = Args[I];
  if (Name == "--help" || Name == "-h" || Name == "help") {
    if (Name == "help" && I + 1 < Args.size())
      for (const Command &C : commands())
        if (C.Name == Args[I + 1]) {
          printCommandHelp(C, Ctx.Out);
          return ExitOk;
        }
    printMainHelp(Ctx.Out);
    return ExitOk;
  }
  if (Name == "--version") {
    Ctx.Out << "cudadeps " << CUDADEPS_VERSION << '\n';
    return ExitOk;
  }
  const Command *Cmd = nullptr;
  for (const Command &C : commands())
    if (C.Name == Name)
      Cmd = &C;
  if (!Cmd) {
    std::vector<StringRef> Names;
    for (const Command &C : commands())
      Names.push_back(C.Name);
    std::string Hint = didYouMean(Name, Names);
    Ctx.Err << "cudadeps: error: unknown "
            << (Name.startswith("-") ? "option '" : "command '") << Name
            << "'" << (Hint.empty() ? "" : "; " + Hint) << '\n'
            << "run 'cudadeps --help' for the list of commands\n";
    return ExitUsage;
  }
  Expected<ParsedOptions> Opts =
      parseOptions(ArrayRef<std::string>(Args).drop_front(I + 1), Cmd->Options());
  if (!Opts) {
    int Code = reportError(Opts.takeError(), Ctx, ExitUsage);
    Ctx.Err << "run 'cudadeps " << Cmd->Name << " --help' for its options\n";
    return Code;
  }
  if (Opts->has("--help")) {
    printCommandHelp(*Cmd, Ctx.Out);
    return ExitOk;
  }
  Verbosity += Opts->count("--verbose");
  if (Error E = setupLogging(Verbosity, Opts->get("--log-file")))
    return reportError(std::move(E), Ctx, ExitUsage);
  return Cmd->Run(Ctx, *Opts);
}

} // namespace cudadeps::cli
