//===- CmdMatrix.cpp - cudadeps matrix MANIFEST ----------------------------===//
//
// The CI build matrix of a package's prebuilt binaries (core/plan/
// BuildMatrix.h) as text (one row per line), a JSON array, or a GitHub
// Actions strategy.matrix document ({"include": [...]}).
//
//===----------------------------------------------------------------------===//
#include "cli/Commands.h"
#include "cli/ExitCodes.h"
#include "core/manifest/KnowledgeBase.h"
#include "core/manifest/ManifestLoader.h"
#include "core/manifest/Registry.h"
#include "core/plan/BuildMatrix.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace cudadeps::cli {

ArrayRef<OptionSpec> matrixOptions() {
  static const OptionSpec Specs[] = {
      {"--format", "", "FORMAT",
       "text (one row per line), json (an array) or github (a GitHub "
       "Actions strategy.matrix with an include list)",
       false,
       {"text", "json", "github"}},
      {"--release", "", "VERSION",
       "the release to build (default: the newest with a prebuilt matrix)"},
      {"--registry", "", "DIR",
       "a registry directory whose cuda/ holds the knowledge base (default: "
       "the installed one)",
       true},
  };
  return Specs;
}

/// The knowledge base of the first --registry DIR with a cuda/ directory,
/// else of the installation.
static Expected<KnowledgeBase> loadKnowledge(Context &Ctx,
                                             const ParsedOptions &Opts) {
  std::vector<std::string> Dirs = Opts.getAll("--registry");
  for (const std::string &D : Dirs)
    if (!sys::fs::is_directory(D))
      return createStringError(inconvertibleErrorCode(),
                               "--registry " + D + ": not a directory");
  Dirs.push_back(Ctx.installedRegistry());
  for (const std::string &D : Dirs) {
    SmallString<256> KBDir(D);
    sys::path::append(KBDir, "cuda");
    if (sys::fs::is_directory(KBDir))
      return KnowledgeBase::loadDirectory(KBDir);
  }
  return createStringError(inconvertibleErrorCode(),
                           "no CUDA knowledge base (cuda/*.toml) in the "
                           "registry; the matrix needs its toolkit and "
                           "torch tables");
}

static std::string abiText(const MatrixRow &R) {
  if (!R.Cxx11Abi)
    return "";
  return *R.Cxx11Abi ? "TRUE" : "FALSE";
}

static std::string pythonText(const MatrixRow &R) {
  return R.Python ? R.Python->str() : R.PythonTag;
}

static json::Object rowObject(const MatrixRow &R, bool GitHub) {
  json::Object O;
  O["torch"] = R.Torch.str();
  O["cuda"] = R.Nvcc.str();
  O["cuda_major"] = std::to_string(R.CudaMajor);
  O["python"] = pythonText(R);
  O["python_tag"] = R.PythonTag;
  if (R.Cxx11Abi)
    O["cxx11_abi"] = abiText(R);
  else if (!GitHub)
    O["cxx11_abi"] = nullptr;
  O["platform"] = R.Platform;
  O["nvcc"] = R.Nvcc.str();
  if (R.Gcc)
    O["gcc"] = std::to_string(*R.Gcc);
  else if (!GitHub)
    O["gcc"] = nullptr;
  if (!GitHub)
    O["torch_known"] = R.TorchKnown;
  return O;
}

int runMatrix(Context &Ctx, const ParsedOptions &Opts) {
  if (Opts.Positionals.size() != 1) {
    Ctx.Err << "cudadeps: error: matrix needs exactly one MANIFEST\n"
               "usage: cudadeps matrix MANIFEST [--format json|github] "
               "[--release VERSION]\n";
    return ExitUsage;
  }
  std::optional<Version> Wanted;
  if (Opts.has("--release")) {
    Expected<Version> V = Version::parse(Opts.get("--release"));
    if (!V)
      return reportError(V.takeError(), Ctx, ExitUsage);
    Wanted = *V;
  }
  Expected<Manifest> M = loadManifest(Opts.Positionals.front());
  if (!M)
    return reportError(M.takeError(), Ctx, ExitUsage);
  Expected<KnowledgeBase> KB = loadKnowledge(Ctx, Opts);
  if (!KB)
    return reportError(KB.takeError(), Ctx, ExitUsage);
  Expected<BuildMatrix> BM = computeBuildMatrix(*M, *KB, Wanted);
  if (!BM)
    return reportError(BM.takeError(), Ctx, ExitUsage);

  std::string Format = Opts.get("--format", "text");
  if (Format == "json" || Format == "github") {
    bool GitHub = Format == "github";
    json::Array Rows;
    for (const MatrixRow &R : BM->Rows)
      Rows.push_back(rowObject(R, GitHub));
    json::Value Doc = GitHub ? json::Value(json::Object{
                                   {"include", std::move(Rows)}})
                             : json::Value(std::move(Rows));
    Ctx.Out << formatv("{0:2}", Doc) << '\n';
    return ExitOk;
  }
  for (const MatrixRow &R : BM->Rows) {
    std::string Abi = abiText(R);
    Ctx.Out << formatv("torch {0,-5} cu{1,-3} python {2,-5} {3,-18} {4,-14} "
                       "nvcc {5,-5} gcc {6}",
                       R.Torch.str(), R.CudaMajor, pythonText(R),
                       Abi.empty() ? std::string("cxx11abi -")
                                   : "cxx11abi " + Abi,
                       R.Platform.empty() ? std::string("-") : R.Platform,
                       R.Nvcc.str(),
                       R.Gcc ? std::to_string(*R.Gcc) : std::string("-"))
            << '\n';
  }
  return ExitOk;
}

} // namespace cudadeps::cli
