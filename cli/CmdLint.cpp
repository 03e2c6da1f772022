//===- CmdLint.cpp - cudadeps lint MANIFEST... -----------------------------===//
#include "cli/Commands.h"
#include "cli/ExitCodes.h"
#include "core/manifest/ManifestLoader.h"

using namespace llvm;

namespace cudadeps::cli {

ArrayRef<OptionSpec> lintOptions() { return {}; }

int runLint(Context &Ctx, const ParsedOptions &Opts) {
  if (Opts.Positionals.empty()) {
    Ctx.Err << "cudadeps: error: lint needs at least one MANIFEST\n"
               "usage: cudadeps lint MANIFEST...\n";
    return ExitUsage;
  }
  int Code = ExitOk;
  for (const std::string &Path : Opts.Positionals) {
    Expected<Manifest> M = loadManifest(Path);
    if (!M) {
      Code = reportError(M.takeError(), Ctx, ExitUsage);
      continue;
    }
    if (Error E = lintManifest(*M)) {
      Code = reportError(std::move(E), Ctx, ExitUsage);
      continue;
    }
    Ctx.Out << Path << ": ok\n";
  }
  return Code;
}

} // namespace cudadeps::cli
