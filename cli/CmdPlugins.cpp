//===- CmdPlugins.cpp - cudadeps plugins: loaded probes and their origin ---===//
#include "cli/Commands.h"
#include "cli/ExitCodes.h"
#include "cli/PrintableStream.h"
#include "core/plugin/MachineFacts.h"
#include "core/support/Printable.h"
#include "plugins/Builtin.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

using namespace llvm;

namespace cudadeps::cli {

ArrayRef<OptionSpec> pluginsOptions() {
  static const OptionSpec Options[] = {
      {"--plugin", "", "PATH", "also load this external probe plugin (.so)",
       true},
  };
  return Options;
}

/// True when \p Failure is about a path the user named with --plugin (the
/// file itself, or a file in a directory they named).
static bool isExplicit(const PluginLoadFailure &Failure,
                       ArrayRef<std::string> PluginArgs) {
  for (const std::string &Arg : PluginArgs) {
    SmallString<256> Abs(Arg);
    sys::fs::make_absolute(Abs);
    sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
    StringRef P = Failure.Path;
    if (P == Abs || (P.startswith(Abs) && P.size() > Abs.size() &&
                     sys::path::is_separator(P[Abs.size()])))
      return true;
  }
  return false;
}

bool reportPluginFailures(Context &Ctx,
                          const std::vector<PluginLoadFailure> &Failures,
                          ArrayRef<std::string> PluginArgs) {
  bool Any = false;
  for (const PluginLoadFailure &F : Failures) {
    if (F.What == PluginLoadError::Kind::Shadowed ||
        !isExplicit(F, PluginArgs))
      continue;
    Ctx.Err << "cudadeps: error: " << printableText(F.Message) << '\n';
    Any = true;
  }
  return Any;
}

static int plugins(Context &Ctx, const ParsedOptions &Opts) {
  if (!Opts.Positionals.empty()) {
    Ctx.Err << "cudadeps: error: plugins takes no arguments (got '"
            << Opts.Positionals.front() << "')\n";
    return ExitUsage;
  }
  PluginSearchPath Search;
  Search.CommandLine = Opts.getAll("--plugin");
  if (Optional<std::string> P = sys::Process::GetEnv("CUDADEPS_PLUGIN_PATH"))
    Search.EnvPath = *P;
  Search.InstalledDir = Ctx.installedPluginDir();
  ProbeSet Set = collectProbes(builtinProbes(), Search);

  Ctx.Out << "probe plugins (in the order their answers are merged):\n";
  size_t Width = 8;
  for (const auto &P : Set.Probes)
    Width = std::max(Width, P->name().size());
  for (const auto &P : Set.Probes)
    Ctx.Out << "  " << left_justify(P->name(), Width) << "  "
            << left_justify(P->version(), 8) << "  " << P->origin() << '\n';
  if (Set.Probes.empty())
    Ctx.Out << "  (none)\n";

  Ctx.Out << "\nsearched for external plugins:\n";
  for (const std::string &P : Search.CommandLine)
    Ctx.Out << "  --plugin " << P << '\n';
  Ctx.Out << "  $CUDADEPS_PLUGIN_PATH"
          << (Search.EnvPath ? " = " + *Search.EnvPath : std::string(" (unset)"))
          << '\n';
  Ctx.Out << "  " << Search.InstalledDir
          << (sys::fs::is_directory(Search.InstalledDir) ? "" : " (absent)")
          << '\n';

  if (!Set.Failures.empty()) {
    Ctx.Out << "\nnot loaded:\n";
    for (const PluginLoadFailure &F : Set.Failures)
      Ctx.Out << "  " << F.Message << '\n';
  }
  if (reportPluginFailures(Ctx, Set.Failures, Search.CommandLine))
    return ExitUsage;
  return ExitOk;
}

/// plugins, on a Context that shows every line through printableText (a
/// plugin's name, version and failure are its own).
int runPlugins(Context &Ctx, const ParsedOptions &Opts) {
  PrintableContext Shown(Ctx);
  return plugins(Shown.get(), Opts);
}

} // namespace cudadeps::cli
