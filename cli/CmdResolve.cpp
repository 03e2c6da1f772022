//===- CmdResolve.cpp - cudadeps resolve / cudadeps explain -----------------===//
#include "cli/Commands.h"
#include "cli/Emitter.h"
#include "cli/ExitCodes.h"
#include "cli/MachineSetup.h"
#include "cli/OutputFile.h"
#include "cli/Prepared.h"
#include "cli/ResolveLock.h"
#include "cli/ResolveRender.h"
#include "core/plan/BuildEnvironment.h"
#include "core/plan/Launcher.h"
#include "core/plan/Resolver.h"
#include "core/support/Printable.h"
#include "plugins/platform/HostFiles.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/BuryPointer.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace cudadeps::cli {

namespace {

std::vector<OptionSpec> resolveOptionTable(bool Explain) {
  std::vector<OptionSpec> Specs = solveOptions();
  Specs.push_back({"--offline", "", "",
                   "touch no network (resolving never does; accepted as "
                   "build takes it)"});
  if (Explain)
    return Specs;
  Specs.push_back({"--format", "", "FORMAT", "text (default) or json", false,
                   {"text", "json"}});
  Specs.push_back({"--emit", "", "KIND",
                   "write the chosen toolchain for a build system: cmake, "
                   "make or env",
                   false,
                   {"cmake", "make", "env"}});
  Specs.push_back({"--output", "-o", "FILE",
                   "write --emit output to FILE (untouched when unchanged)"});
  Specs.push_back({"--package", "", "NAME",
                   "--emit only this package's toolchain and environment",
                   true});
  Specs.push_back({"--lock", "", "FILE",
                   "write the decisions and what they rest on to FILE (with "
                   "--locked: the lock to check)"});
  Specs.push_back({"--locked", "", "",
                   "check that this machine still matches the lock "
                   "(--lock FILE, else cudadeps.lock beside the manifest); "
                   "any drift is exit 1"});
  Specs.push_back({"--launcher", "", "LAUNCHER",
                   "--emit a compiler launcher: ccache, sccache, auto (either, "
                   "when installed), none (default) or a path"});
  return Specs;
}

} // namespace

Expected<Prepared> prepareAndResolve(Context &Ctx, const ParsedOptions &Opts,
                                     ArrayRef<std::string> Inputs,
                                     StringRef DerivationOf) {
  Prepared P;
  P.Request.DerivationOf = DerivationOf.str();
  auto W = loadWorkspaceFor(Ctx, Inputs, Opts);
  if (!W)
    return W.takeError();
  P.W = std::move(*W);
  const Manifest &M = P.W->Main;
  if (M.Proj) {
    P.Request.RootName = M.Proj->Name;
    P.Request.Requires = M.Proj->Requires;
    for (const Arch &A : M.Proj->TargetArchs)
      P.Request.TargetArchs.push_back(A.Name);
    if (!P.Request.TargetArchs.empty())
      P.Request.TargetOrigin = "[target] archs in " + M.File;
  } else if (M.Pkg) {
    P.Request.RootName = "(" + M.Pkg->Name + " manifest)";
    Requirement R;
    R.Key = M.Pkg->canonicalName();
    R.Range = VersionSet::any();
    R.Text = "*";
    P.Request.Requires.emplace(R.Key, R);
  }
  for (const std::string &A : Opts.getAll("--arch")) {
    if (!isValidArch(A))
      return createStringError(inconvertibleErrorCode(),
                               "invalid --arch '" + A.substr(0, 40) +
                                   "': expected sm_NN, sm_NNa or sm_NNf; " +
                                   archHint(StringRef(A).take_front(40)));
    if (P.Request.TargetOrigin != "--arch") {
      P.Request.TargetArchs.clear();
      P.Request.TargetOrigin = "--arch";
    }
    P.Request.TargetArchs.push_back(A);
  }
  P.Request.NoFallback = Opts.has("--no-fallback");
  // Every requested package must have a manifest.
  if (Error E = checkRequirementsHaveManifests(*P.W))
    return E;
  auto MF = gatherMachineFacts(Ctx, Opts);
  if (!MF)
    return MF.takeError();
  P.Machine = std::move(*MF);
  if (!P.Machine.NvccsRemoved.empty()) {
    std::vector<std::string> Had;
    for (const NvccFacts &N : P.Machine.NvccsRemoved)
      Had.push_back(N.Ver.str() + " at " + N.Path);
    P.Request.NvccAbsentDetail =
        "--set nvcc= removed the toolkit" +
        std::string(Had.size() == 1 ? " " : "s ") +
        (P.Machine.FactsFile.empty() ? "found: "
                                     : "the facts file " +
                                           P.Machine.FactsFile + " lists: ") +
        join(Had, ", ");
  } else if (!P.Machine.FactsFile.empty()) {
    P.Request.NvccAbsentDetail =
        "the facts file " + P.Machine.FactsFile + " lists no [[nvcc]]";
  } else {
    for (const ProbeReport &R : P.Machine.Reports)
      if (R.Name == "nvcc" && !R.Searched.empty())
        P.Request.NvccAbsentDetail = "searched: " + join(R.Searched, ", ");
  }
  Workspace &WS = *P.W;
  const PackageLookup Lookup = [&WS](StringRef N) { return WS.find(N); };
  const PackageExists Exists = [&WS](StringRef N) { return WS.has(N); };
  Expected<Resolution> R =
      resolve(P.Request, Lookup, P.Machine.F, WS.KB, Exists);
  if (!R)
    return R.takeError();
  P.Result = std::move(*R);
  // What a probe could not finish is missing from the facts: say so.
  for (const ProbeReport &Rep : P.Machine.Reports)
    for (const ProbeTimeout &T : Rep.TimedOut)
      P.Result.Warnings.push_back(
          "probe " + Rep.Name + ": " + T.What + " timed out after " +
          probes::formatSeconds(T.After) +
          "; what it would have found is missing from the facts");
  return P;
}

void keepUntilExit(Context &Ctx, Prepared &P) {
  if (!Ctx.FreeOnReturn)
    BuryPointer(std::make_unique<Prepared>(std::move(P)));
}

namespace {

/// "probe_timeouts": what each probe could not finish in its time.
void addProbeTimeouts(json::Value &Doc, const MachineFacts &M) {
  json::Array Timeouts;
  for (const ProbeReport &R : M.Reports)
    for (const ProbeTimeout &T : R.TimedOut)
      Timeouts.push_back(json::Object{{"probe", R.Name},
                                      {"what", T.What},
                                      {"after_ms", int64_t(T.After.count())}});
  (*Doc.getAsObject())["probe_timeouts"] = std::move(Timeouts);
}

int exitCodeFor(const Resolution &R) {
  return R.Status == ResolveStatus::Unsatisfiable ? ExitUnsatisfiable : ExitOk;
}

/// The files and variables a resolve rests on: the manifests it read, the
/// knowledge base, and the facts file or what each probe looked at.
void collectInputs(Context &Ctx, Prepared &P, EmitRequest &Req) {
  Req.Inputs = filesRead(Ctx, *P.W, P.Result);
  if (!P.Machine.FactsFile.empty())
    addAbsolutePath(Req.Inputs, P.Machine.FactsFile);
  for (const ProbeReport &R : P.Machine.Reports) {
    for (const std::string &In : R.Inputs)
      addAbsolutePath(Req.Inputs, In);
    for (const std::string &N : R.EnvInputs)
      if (!is_contained(Req.EnvInputs, N))
        Req.EnvInputs.push_back(N);
  }
  for (StringRef N : {"CUDADEPS_FACTS", "CUDADEPS_REGISTRY",
                      "CUDADEPS_PLUGIN_PATH"})
    if (!is_contained(Req.EnvInputs, N))
      Req.EnvInputs.push_back(N.str());
}

/// `--emit KIND [-o FILE] [--package NAME]`. Nothing is emitted when there
/// is no buildable configuration (exit 1) or a value cannot be written
/// safely (exit 2). Without -o the emitted text is stdout and the text
/// report goes to stderr; with --format json stdout is one JSON document
/// whose "emit" member holds the text.
int emitHook(Context &Ctx, const ParsedOptions &Opts, Prepared &P,
             const std::optional<LockOutcome> &Locked) {
  const Resolution &R = P.Result;
  bool Drifted = Locked && Locked->Checked && !Locked->Drift.empty();
  bool Json = Opts.get("--format", "text") == "json";
  EmitRequest Req;
  Req.Kind = Opts.get("--emit");
  for (const std::string &Name : Opts.getAll("--package")) {
    std::string Canonical = canonicalPackageName(Name);
    if (!R.find(Canonical)) {
      std::vector<StringRef> Names;
      for (const PackageResolution &X : R.Packages)
        Names.push_back(X.Name);
      std::string Hint = didYouMean(Canonical, Names);
      Ctx.Err << "cudadeps: error: --package '" << Name
              << "' is not part of this resolution"
              << (Hint.empty() ? "" : "; " + Hint) << '\n';
      return ExitUsage;
    }
    Req.Packages.push_back(Canonical);
  }
  Expected<std::string> Launcher = chooseLauncher(
      Opts.get("--launcher", "none"),
      std::getenv("PATH") ? std::getenv("PATH") : "");
  if (!Launcher)
    return reportError(Launcher.takeError(), Ctx, ExitUsage);
  Req.Launcher = *Launcher;
  if (Req.Kind == "env") {
    BuildEnvironmentOptions EnvOpts;
    EnvOpts.Launcher = Req.Launcher;
    for (const PackageResolution &PR : R.Packages) {
      const Package *Pkg = P.W->find(PR.Name);
      if (PR.How != Strategy::Source || !Pkg ||
          (!Req.Packages.empty() && !is_contained(Req.Packages, PR.Name)))
        continue;
      Expected<BuildEnvironment> BE =
          computeBuildEnvironment(*Pkg, PR, P.Machine.F, EnvOpts);
      if (!BE)
        return reportError(BE.takeError(), Ctx, ExitUsage);
      Req.BuildEnvs[PR.Name] = BE->Vars;
    }
  }
  if (Req.Kind != "env")
    collectInputs(Ctx, P, Req);
  std::string File = Opts.get("--output");
  std::optional<std::string> Text;
  std::optional<bool> Changed;
  if (R.Status != ResolveStatus::Unsatisfiable && !Drifted) {
    Expected<std::string> E = renderEmit(R, Req);
    if (!E)
      return reportError(E.takeError(), Ctx, ExitUsage);
    Text = std::move(*E);
    if (!File.empty()) {
      Expected<bool> W = writeFileIfChanged(File, *Text);
      if (!W)
        return reportError(W.takeError(), Ctx, ExitUsage);
      Changed = *W;
    }
  }
  if (Json) {
    json::Value Doc = renderJson(R, P.Machine.F);
    addProbeTimeouts(Doc, P.Machine);
    json::Object Emit{
        {"kind", Req.Kind},
        {"file", File.empty() ? json::Value(nullptr) : json::Value(File)},
        {"text", Text ? json::Value(*Text) : json::Value(nullptr)},
        {"changed", Changed ? json::Value(*Changed) : json::Value(nullptr)}};
    (*Doc.getAsObject())["emit"] = std::move(Emit);
    if (Locked)
      (*Doc.getAsObject())["lock"] = renderLockJson(*Locked);
    printJson(Ctx.Out, Doc, R);
    Ctx.Out << '\n';
  } else if (File.empty()) {
    // The emitted text is the result; the report goes to stderr.
    if (Text)
      Ctx.Out << *Text;
    renderText(R, Ctx.Err, false);
    if (Locked)
      renderLockText(*Locked, Ctx.Err);
  } else {
    renderText(R, Ctx.Out, Ctx.Color);
    if (Locked)
      renderLockText(*Locked, Ctx.Out);
  }
  if (!File.empty())
    Ctx.Err << "cudadeps: "
            << (!Text ? "nothing written to " + File +
                            (Drifted ? " (the lock does not hold)"
                                     : " (no buildable configuration)")
             : *Changed ? "wrote " + File
                        : File + " is up to date")
            << '\n';
  return Drifted ? int(ExitUnsatisfiable) : exitCodeFor(R);
}

} // namespace

ArrayRef<OptionSpec> resolveOptions() {
  static const std::vector<OptionSpec> Specs = resolveOptionTable(false);
  return Specs;
}

ArrayRef<OptionSpec> explainOptions() {
  static const std::vector<OptionSpec> Specs = resolveOptionTable(true);
  return Specs;
}

int runResolve(Context &Ctx, const ParsedOptions &Opts) {
  if (Opts.Positionals.empty()) {
    Ctx.Err << "cudadeps: error: resolve needs a MANIFEST or package "
               "requirements\n"
               "usage: cudadeps resolve MANIFEST|REQUIREMENT... [options]\n";
    return ExitUsage;
  }
  for (StringRef Needs : {"--output", "--package", "--launcher"})
    if (Opts.has(Needs) && !Opts.has("--emit")) {
      Ctx.Err << "cudadeps: error: " << Needs
              << " needs --emit cmake|make|env\n";
      return ExitUsage;
    }
  Expected<Prepared> P = prepareAndResolve(Ctx, Opts, Opts.Positionals);
  if (!P)
    return reportError(P.takeError(), Ctx, ExitUsage);
  auto Keep = make_scope_exit([&] { keepUntilExit(Ctx, *P); });
  const Resolution *R = &P->Result;

  Expected<std::optional<LockOutcome>> Locked = applyLockOptions(
      Ctx, Opts, *P->W, *R, P->Machine.F, Opts.Positionals.front());
  if (!Locked)
    return reportError(Locked.takeError(), Ctx, ExitUsage);
  if (Opts.has("--emit"))
    return emitHook(Ctx, Opts, *P, *Locked);
  if (Opts.get("--format", "text") == "json") {
    json::Value Doc = renderJson(*R, P->Machine.F);
    addProbeTimeouts(Doc, P->Machine);
    if (*Locked)
      (*Doc.getAsObject())["lock"] = renderLockJson(**Locked);
    printJson(Ctx.Out, Doc, *R);
    Ctx.Out << '\n';
  } else {
    renderText(*R, Ctx.Out, Ctx.Color);
    if (*Locked)
      renderLockText(**Locked, Ctx.Out);
  }
  if (*Locked && (*Locked)->Checked && !(*Locked)->Drift.empty())
    return ExitUnsatisfiable;
  return exitCodeFor(*R);
}

int runExplain(Context &Ctx, const ParsedOptions &Opts) {
  if (Opts.Positionals.size() != 2) {
    Ctx.Err << "cudadeps: error: explain needs a MANIFEST and a PACKAGE\n"
               "usage: cudadeps explain MANIFEST PACKAGE [options]\n";
    return ExitUsage;
  }
  std::string Want = canonicalPackageName(Opts.Positionals[1]);
  Expected<Prepared> P =
      prepareAndResolve(Ctx, Opts, {Opts.Positionals[0]}, Want);
  if (!P)
    return reportError(P.takeError(), Ctx, ExitUsage);
  auto Keep = make_scope_exit([&] { keepUntilExit(Ctx, *P); });
  const Resolution *R = &P->Result;
  const PackageResolution *PR = R->find(Want);
  if (!PR) {
    std::vector<StringRef> Names;
    for (const PackageResolution &X : R->Packages)
      Names.push_back(X.Name);
    // Located at what the manifest asks for: its [project] (or [package])
    // table, which is where the package would have to be required.
    const Manifest &M = P->W->Main;
    SourceLocation Loc{M.File, 1, 1};
    if (M.Proj && M.Proj->Loc.Line)
      Loc = M.Proj->Loc;
    else if (M.Pkg && M.Pkg->Loc.Line)
      Loc = M.Pkg->Loc;
    Loc.File = M.File;
    std::string Resolved = join(Names, ", ");
    std::string Hint = didYouMean(Want, Names);
    Diagnostic D;
    D.Loc = Loc;
    D.Message = "package '" + Opts.Positionals[1] +
                "' (the PACKAGE argument of explain) is not part of the "
                "resolution of this manifest (it resolves: " +
                (Resolved.empty() ? std::string("nothing") : Resolved) + ")";
    D.SourceLine = sourceLine(M.Text, Loc.Line);
    D.Hint = Hint;
    return reportError(make_error<DiagnosticError>(std::vector<Diagnostic>{D}),
                       Ctx, ExitUsage);
  }
  // The summary line speaks of this package only.
  Resolution One = *R;
  One.Packages = {*PR};
  One.Status = PR->How == Strategy::Unsatisfiable ? ResolveStatus::Unsatisfiable
               : PR->How == Strategy::Fallback    ? ResolveStatus::Fallback
                                                  : ResolveStatus::Resolved;
  renderText(One, Ctx.Out, Ctx.Color);
  Ctx.Out << '\n';
  // What follows names paths and sources read from the machine and the
  // manifests: it is shown through printableText, like every text report.
  std::string Body;
  raw_string_ostream Out(Body);
  if (!PR->Derivation.empty()) {
    Out << "derivation:\n" << PR->Derivation << '\n';
  } else {
    Out << "derivation: the preferred configuration (the newest release"
        << (PR->How == Strategy::NoBuild ? "" : ", built from source")
        << ") resolved without conflict\n";
  }
  Out << "\nfacts used:\n";
  const Facts &F = P->Machine.F;
  for (const NvccFacts &N : F.Nvccs)
    Out << "  nvcc " << N.Ver.str() << " at " << N.Path << ": "
        << N.From.describe() << '\n';
  if (F.Nvccs.empty())
    Out << "  nvcc: none ("
        << (P->Request.NvccAbsentDetail.empty() ? "not found"
                                                : P->Request.NvccAbsentDetail)
        << ")\n";
  for (const CompilerFacts &C : F.Compilers)
    Out << "  " << C.Family << ' ' << C.Ver.str() << " at " << C.Path << ": "
        << C.From.describe() << '\n';
  if (F.Torch)
    Out << "  torch " << F.Torch->Ver.str() << " (cuda "
        << (F.Torch->Cuda          ? F.Torch->Cuda->str()
            : F.Torch->CudaUnknown ? std::string("unknown")
                                   : std::string("none"))
        << "): " << F.Torch->From.describe() << '\n';
  if (F.Python)
    Out << "  python " << F.Python->Ver.str() << ": "
        << F.Python->From.describe() << '\n';
  const PackageLookup Lookup = [&WS = *P->W](StringRef N) {
    return WS.find(N);
  };
  for (const std::string &D : requiredDistributions(Lookup, PR->Name)) {
    auto It = F.Packages.find(D);
    if (It == F.Packages.end())
      Out << "  " << D << ": not installed\n";
    else
      Out << "  " << D << ' ' << It->second.Ver.str() << ": "
          << It->second.From.describe() << '\n';
  }
  if (F.Driver)
    Out << "  driver "
        << (F.Driver->KernelVersion ? F.Driver->KernelVersion->str() : "?")
        << " (cuda " << (F.Driver->Cuda ? F.Driver->Cuda->str() : "?")
        << "): " << F.Driver->CudaSource.describe() << '\n';
  for (const GpuFacts &G : F.Gpus)
    Out << "  gpu " << G.Name << " (" << G.smArch()
        << "): " << G.From.describe() << '\n';
  Out.flush();
  Ctx.Out << printableText(Body, /*KeepLineBreaks=*/true);
  return exitCodeFor(*R);
}

} // namespace cudadeps::cli
