//===- CmdLint.cpp - cudadeps lint MANIFEST... -----------------------------===//
#include "cli/Commands.h"
#include "cli/ExitCodes.h"
#include "cli/MachineSetup.h"
#include "cli/PrintableStream.h"
#include "core/manifest/Consistency.h"
#include "core/manifest/KnowledgeBase.h"
#include "core/manifest/ManifestLoader.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace cudadeps::cli {

ArrayRef<OptionSpec> lintOptions() {
  static const OptionSpec Specs[] = {
      {"--registry", "", "DIR",
       "look for the manifests a project requires in DIR first", true}};
  return Specs;
}

static void printWarnings(ArrayRef<Diagnostic> Warnings, Context &Ctx) {
  for (const Diagnostic &W : Warnings)
    Ctx.Err << W.render();
}

static int lint(Context &Ctx, const ParsedOptions &Opts) {
  if (Opts.Positionals.empty()) {
    Ctx.Err << "cudadeps: error: lint needs at least one MANIFEST\n"
               "usage: cudadeps lint MANIFEST...\n";
    return ExitUsage;
  }
  // The knowledge base of the installation, for the data-consistency checks
  // (archs vs nvcc, torch/cuda pairs); without one they are skipped.
  SmallString<256> KBDir(Ctx.installedRegistry());
  sys::path::append(KBDir, "cuda");
  std::optional<KnowledgeBase> KB;
  if (sys::fs::is_directory(KBDir)) {
    Expected<KnowledgeBase> Loaded = KnowledgeBase::loadDirectory(KBDir);
    if (!Loaded)
      return reportError(Loaded.takeError(), Ctx, ExitUsage);
    KB = std::move(*Loaded);
  }
  int Code = ExitOk;
  for (const std::string &Path : Opts.Positionals) {
    Expected<Manifest> M = loadManifest(Path);
    if (!M) {
      Code = reportError(M.takeError(), Ctx, ExitUsage);
      continue;
    }
    printWarnings(M->Warnings, Ctx);
    if (Error E = lintManifest(*M)) {
      Code = reportError(std::move(E), Ctx, ExitUsage);
      continue;
    }
    // A project's requirements must name packages the registry describes.
    if (M->Proj) {
      auto W = loadWorkspace(Ctx, Path, Opts);
      Error E = W ? checkRequirementsHaveManifests(**W) : W.takeError();
      if (E) {
        Code = reportError(std::move(E), Ctx, ExitUsage);
        continue;
      }
    }
    if (KB) {
      std::vector<Diagnostic> Warnings;
      Error E = checkConsistency(*M, *KB, &Warnings);
      printWarnings(Warnings, Ctx);
      if (E) {
        Code = reportError(std::move(E), Ctx, ExitUsage);
        continue;
      }
    }
    Ctx.Out << Path << ": ok\n";
  }
  return Code;
}

/// lint, on a Context that shows every line through printableText (the
/// manifests' paths are the user's).
int runLint(Context &Ctx, const ParsedOptions &Opts) {
  PrintableContext Shown(Ctx);
  return lint(Shown.get(), Opts);
}

} // namespace cudadeps::cli
