//===- CmdBuild.cpp - cudadeps build / cudadeps install --------------------===//
//
// Resolve, then carry out each package's decision: clone and compile into
// the build cache (source), fetch the published wheel (prebuilt), nothing
// (no-build), or report the fallback and how to select it. `install` then
// pip-installs the results into the facts' Python. `--dry-run` prints the
// plan instead: every step's argv, working directory and environment.
//
//===----------------------------------------------------------------------===//
#include "cli/Commands.h"
#include "cli/EmitQuoting.h"
#include "cli/ExitCodes.h"
#include "cli/MachineSetup.h"
#include "cli/PrintableStream.h"
#include "cli/Prepared.h"
#include "cli/ResolveLock.h"
#include "cli/ResolveRender.h"
#include "cli/ToolkitPlan.h"
#include "core/build/Builder.h"
#include "core/build/Pip.h"
#include "core/build/Wheel.h"
#include "core/fetch/SourceFetcher.h"
#include "core/manifest/Template.h"
#include "core/plan/BuildEnvironment.h"
#include "core/plan/Launcher.h"
#include "core/plan/Provision.h"
#include "core/support/Interrupt.h"
#include "core/support/Printable.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

#include <chrono>
#include <csignal>

using namespace llvm;

namespace cudadeps::cli {

namespace {

std::vector<OptionSpec> buildOptionTable() {
  std::vector<OptionSpec> Specs = solveOptions();
  Specs.push_back({"--jobs", "-j", "N",
                   "parallel compile jobs (MAX_JOBS); default: from CPUs and "
                   "memory"});
  Specs.push_back({"--dry-run", "-n", "",
                   "print the plan (steps, argv, directories, environment, "
                   "archs) and do nothing"});
  Specs.push_back({"--launcher", "", "LAUNCHER",
                   "compiler launcher: auto (default: ccache, else sccache, "
                   "when installed), none, ccache, sccache or a path"});
  Specs.push_back({"--offline", "", "",
                   "touch no network: use only what the cache holds"});
  Specs.push_back({"--cache-dir", "", "DIR",
                   "the cache (default $XDG_CACHE_HOME/cudadeps, else "
                   "~/.cache/cudadeps)"});
  Specs.push_back({"--locked", "", "",
                   "build exactly what the lock says: stop (exit 1) when this "
                   "machine drifted from it, check out the locked commits"});
  Specs.push_back({"--lock", "", "FILE",
                   "the lock --locked checks (default: cudadeps.lock beside "
                   "the manifest)"});
  Specs.push_back({"--provision", "", "",
                   "when no toolkit here lets a package build from source but "
                   "one can be assembled without root (NVIDIA's wheels), say "
                   "which, from where and how large, and install it first"});
  Specs.push_back({"--provision-from", "", "DIR",
                   "--provision from a directory of NVIDIA's wheels (offline) "
                   "instead of PyPI"});
  return Specs;
}

std::string cacheDirFrom(const ParsedOptions &Opts) {
  if (Opts.has("--cache-dir"))
    return Opts.get("--cache-dir");
  SmallString<256> D;
  if (const char *X = std::getenv("XDG_CACHE_HOME"); X && *X) {
    D = X;
  } else if (const char *H = std::getenv("HOME"); H && *H) {
    D = H;
    sys::path::append(D, ".cache");
  } else {
    D = "/tmp";
  }
  sys::path::append(D, "cudadeps");
  return std::string(D);
}

/// An argv as one line a user can read (and paste into a POSIX shell).
std::string showArgv(ArrayRef<std::string> Argv) {
  std::vector<std::string> Words;
  for (const std::string &A : Argv) {
    Expected<std::string> W = shellWord(A);
    if (W) {
      Words.push_back(*W);
    } else {
      consumeError(W.takeError());
      Words.push_back("'" + printableText(A) + "'");
    }
  }
  return join(Words, " ");
}

std::string seconds(std::chrono::steady_clock::time_point Start) {
  double S = std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                           Start)
                 .count();
  return formatv("{0:f1} s", S).str();
}

std::string bytes(uint64_t N) {
  if (N >= 1 << 20)
    return formatv("{0:f1} MiB", double(N) / (1 << 20)).str();
  if (N >= 1 << 10)
    return formatv("{0:f1} KiB", double(N) / (1 << 10)).str();
  return formatv("{0} B", N).str();
}

/// Progress on stderr: a line redrawn in place on a terminal, periodic
/// lines otherwise.
class Progress : public FetchObserver, public BuildObserver {
public:
  explicit Progress(raw_ostream &Err)
      : Err(Err), Tty(sys::Process::StandardErrIsDisplayed()) {}

  void onFetchProgress(const FetchProgress &P) override {
    LastFetch = P;
    if (!Tty)
      return;
    double S = elapsed();
    std::string Line;
    if (P.Now == FetchProgress::Phase::CheckingOut)
      Line = formatv("  checking out {0}: {1}/{2} files", P.Repository,
                     P.CheckedOut, P.TotalFiles);
    else
      Line = formatv("  fetching {0}: {1}/{2} objects, {3}, {4}/s",
                     P.Repository, P.ReceivedObjects, P.TotalObjects,
                     bytes(P.ReceivedBytes),
                     bytes(S > 0 ? uint64_t(P.ReceivedBytes / S) : 0));
    redraw(Line);
  }
  void onFetchNote(StringRef Note) override { line("  " + Note.str()); }

  void onStep(StringRef Package, const BuildStep &S, unsigned Index,
              unsigned Count) override {
    line(formatv("  [{0}/{1}] {2}: {3}", Index + 1, Count, S.Name,
                 showArgv(S.Argv))
             .str());
    LastReport = std::chrono::steady_clock::now();
  }
  void onCompileProgress(StringRef Package, unsigned Done, unsigned Total,
                         StringRef) override {
    std::string Line =
        Total ? formatv("  compiling {0}: {1}/{2} units", Package, Done, Total)
                    .str()
              : formatv("  compiling {0}: {1}%", Package, Done).str();
    if (Tty) {
      redraw(Line);
      return;
    }
    auto Now = std::chrono::steady_clock::now();
    if (Now - LastReport >= std::chrono::seconds(10)) {
      line(Line);
      LastReport = Now;
    }
  }
  void onBuildNote(StringRef Note) override { line("  " + Note.str()); }

  void startTimer() { Start = std::chrono::steady_clock::now(); }
  /// The one summary line of a fetch.
  std::string fetchSummary() const {
    if (LastFetch.ReceivedObjects == 0)
      return "a local copy";
    return formatv("{0} objects, {1}", LastFetch.ReceivedObjects,
                   bytes(LastFetch.ReceivedBytes));
  }
  void finish() {
    if (Drawn) {
      Err << "\r\x1b[K";
      Err.flush();
      Drawn = false;
    }
  }
  void line(const std::string &L) {
    finish();
    Err << printableText(L) << '\n';
    Err.flush();
  }

private:
  double elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         Start)
        .count();
  }
  void redraw(const std::string &L) {
    Err << "\r\x1b[K" << printableText(StringRef(L).take_front(160));
    Err.flush();
    Drawn = true;
  }
  raw_ostream &Err;
  bool Tty;
  bool Drawn = false;
  FetchProgress LastFetch;
  std::chrono::steady_clock::time_point Start =
      std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point LastReport =
      std::chrono::steady_clock::now();
};

extern "C" void onInterruptSignal(int) { requestInterrupt(); }

struct Session {
  Context &Ctx;
  const ParsedOptions &Opts;
  bool Install = false;
  bool DryRun = false;
  std::string CacheDir = {};
  std::string Launcher = {};
  std::optional<unsigned> Jobs = {};
  std::map<std::string, std::string> BaseEnv = {};
  RealProcessRunner Runner = {};
  std::unique_ptr<Progress> Prog = {};
  /// What `install` installs: wheel paths and name==version requirements.
  std::vector<std::string> ToInstall = {};
  /// --locked: the lock holds here; its commit of each source build.
  bool Locked = false;
  std::string LockFile = {};
  std::map<std::string, std::string> LockedCommits = {};
};

BuildOptions buildOptionsFor(Session &S) {
  BuildOptions B;
  B.CacheDir = S.CacheDir;
  B.EnvOptions.Jobs = S.Jobs;
  B.EnvOptions.Launcher = S.Launcher;
  B.BaseEnv = S.BaseEnv;
  auto It = S.BaseEnv.find("PATH");
  std::string Path = It == S.BaseEnv.end() ? "" : It->second;
  std::string CMake = findProgramInPath("cmake", Path);
  B.CMake = CMake.empty() ? "cmake" : CMake;
  B.Ninja = findProgramInPath("ninja", Path);
  B.Runner = &S.Runner;
  B.Observer = S.Prog.get();
  return B;
}

PipOptions pipOptionsFor(Session &S, const Facts &F) {
  PipOptions P;
  P.Python = F.Python ? F.Python->Path : "";
  P.CacheDir = S.CacheDir;
  P.Offline = S.Opts.has("--offline");
  P.Env = S.BaseEnv;
  P.Runner = &S.Runner;
  if (F.Python && F.Platform) {
    std::string Tag = F.Python->tag(); // cp312
    P.TargetArgs = {"--only-binary=:all:",
                    "--python-version",
                    std::to_string(F.Python->Ver.major()) + "." +
                        std::to_string(F.Python->Ver.minor()),
                    "--implementation",
                    "cp",
                    "--abi",
                    Tag,
                    "--platform",
                    F.Platform->tag()};
  }
  return P;
}

void printPlanForSource(Session &S, const Package &Pkg,
                        const PackageResolution &PR, const Facts &F,
                        const FetchRequest &FR) {
  raw_ostream &OS = S.Ctx.Out;
  BuildOptions B = buildOptionsFor(S);
  std::string Src = sourceDirFor(FR, S.CacheDir);
  std::string Out = S.CacheDir + "/builds/<key>/out";
  OS << "  fetch: " << FR.Url.Value << " at tag " << FR.Tag.Value;
  if (FR.Commit)
    OS << " (pinned " << FR.Commit->Value << ")";
  OS << (FR.Submodules ? ", with submodules" : "") << "\n    into " << Src
     << (sys::fs::is_directory(Src) ? " (in the cache)" : "") << '\n';
  ArchChoice A = chooseArchs(Pkg, PR);
  OS << "  archs: " << A.Note << '\n';
  BuildEnvironmentOptions EO = B.EnvOptions;
  EO.SrcDir = Src;
  EO.OutDir = Out;
  Expected<BuildEnvironment> BE = computeBuildEnvironment(Pkg, PR, F, EO);
  if (!BE) {
    OS << "  environment: " << toString(BE.takeError()) << '\n';
    return;
  }
  OS << "  jobs: " << BE->Jobs.Jobs << " (" << BE->Jobs.Reason << ")\n";
  OS << "  environment (on top of the caller's):\n";
  for (const BuildVar &V : BE->Vars)
    OS << "    " << V.Name << "=" << V.Value << (V.Prepend ? ":$" + V.Name : "")
       << "  # " << V.Origin << '\n';
  BuildPaths Paths;
  Paths.Src = Src;
  Paths.Out = Out;
  Paths.Work = S.CacheDir + "/builds/.tmp-<key>";
  Paths.Python = F.Python ? F.Python->Path : "";
  Paths.CMake = B.CMake;
  Paths.Ninja = B.Ninja;
  Expected<std::vector<BuildStep>> Steps =
      planBuildSteps(Pkg, PR, *BE, Paths);
  if (!Steps) {
    OS << "  steps: " << toString(Steps.takeError()) << '\n';
    return;
  }
  for (size_t I = 0; I < Steps->size(); ++I) {
    const BuildStep &St = (*Steps)[I];
    OS << "  step " << I + 1 << "/" << Steps->size() << " " << St.Name
       << " in " << St.WorkingDir << ":\n    " << showArgv(St.Argv) << '\n';
  }
  if (Pkg.Kind == BuildKind::TorchExtension)
    OS << "  wheel: stored as " << Pkg.canonicalName() << "-"
       << PR.Ver->str() << "+" << localTagFor(PR, F) << "-... in "
       << S.CacheDir << "/wheels\n";
  OS << "  log: " << S.CacheDir << "/logs/" << Pkg.canonicalName() << "-"
     << PR.Ver->str() << "-<key>.log\n";
}

/// Reports a failed step the way a user needs it: what failed, the cause
/// when the log shows a known one, the last lines, the log.
int reportBuildFailure(Session &S, const BuildFailure &F) {
  raw_ostream &E = S.Ctx.Err;
  E << "cudadeps: error: " << F.message() << '\n';
  if (!F.Argv.empty())
    E << "  command: " << showArgv(F.Argv) << '\n';
  // The log is the tools' output: shown escaped.
  if (F.Cause)
    E << "  cause: " << F.Cause->Cause << " (log: \""
      << printableText(F.Cause->Line) << "\")\n  hint: " << F.Cause->Hint
      << '\n';
  if (!F.Tail.empty()) {
    E << "  last lines of the log:\n";
    SmallVector<StringRef, 24> Lines;
    StringRef(F.Tail).split(Lines, '\n');
    for (StringRef L : Lines)
      E << "    | " << printableText(L, /*KeepLineBreaks=*/true) << '\n';
  }
  if (!F.LogPath.empty())
    E << "  full log: " << F.LogPath << '\n';
  return ExitBuildFailure;
}

/// Exit code for an error after resolving: 130 interrupted, 2 input
/// (located) errors, 3 everything else (fetch, build, download, install).
int reportRunError(Session &S, Error E) {
  if (S.Prog)
    S.Prog->finish();
  int Code = ExitBuildFailure;
  std::vector<std::string> Messages;
  handleAllErrors(
      std::move(E),
      [&](const InterruptedError &I) {
        Code = ExitInterrupted;
        Messages.push_back("cudadeps: " + I.message() +
                           "; nothing half-done was kept\n");
      },
      [&](const BuildFailure &F) { Code = reportBuildFailure(S, F); },
      [&](const DiagnosticError &D) {
        Code = ExitUsage;
        for (const Diagnostic &Diag : D.diagnostics())
          Messages.push_back(Diag.render());
      },
      [&](const ErrorInfoBase &Info) {
        Messages.push_back("cudadeps: error: " + Info.message() + "\n");
      });
  for (const std::string &M : Messages)
    S.Ctx.Err << M;
  return Code;
}

/// Carries out one package's decision. A prebuilt URL that does not exist
/// comes back as PrebuiltNotFound for the caller to resolve again.
Error carryOut(Session &S, Prepared &P, const PackageResolution &PR) {
  raw_ostream &OS = S.Ctx.Out;
  const Facts &F = P.Machine.F;
  std::string Ver = PR.Ver ? PR.Ver->str() : "";
  const Package *Pkg = P.W->find(PR.Name);
  switch (PR.How) {
  case Strategy::Unsatisfiable:
    return Error::success();
  case Strategy::Fallback: {
    OS << PR.Name << ": nothing to build; using fallback '"
       << (PR.Fallback ? PR.Fallback->Name : "?") << "'";
    if (PR.Fallback) {
      OS << ": " << PR.Fallback->Summary << " (" << PR.Fallback->Impact
         << ")";
      for (const auto &[K, V] : PR.Fallback->Env)
        OS << "\n  select it at run time with " << K << "=" << V;
    }
    OS << '\n';
    return Error::success();
  }
  case Strategy::NoBuild: {
    OS << PR.Name << " " << Ver << ": nothing to build";
    if (S.Install) {
      std::string Req = PR.Name + "==" + Ver;
      OS << "; installs as " << Req;
      S.ToInstall.push_back(Req);
    }
    OS << '\n';
    return Error::success();
  }
  case Strategy::Prebuilt: {
    if (!PR.PrebuiltUrl)
      return createStringError(inconvertibleErrorCode(),
                               "%s %s: the prebuilt decision has no URL",
                               PR.Name.c_str(), Ver.c_str());
    PipOptions PO = pipOptionsFor(S, F);
    if (S.DryRun) {
      OS << PR.Name << " " << Ver << ": prebuilt wheel\n  step fetch: "
         << showArgv(pipDownloadArgv(
                PO, *PR.PrebuiltUrl,
                downloadDirFor(*PR.PrebuiltUrl, S.CacheDir)))
         << "\n  archs: those the published wheel was built for\n";
      return Error::success();
    }
    auto Start = std::chrono::steady_clock::now();
    Expected<std::string> Wheel = fetchPrebuilt(*PR.PrebuiltUrl, PO);
    if (!Wheel)
      return Wheel.takeError();
    OS << PR.Name << " " << Ver << ": prebuilt wheel " << *Wheel << " ("
       << seconds(Start) << ")\n";
    S.ToInstall.push_back(*Wheel);
    return Error::success();
  }
  case Strategy::Source:
    break;
  }
  if (!Pkg)
    return createStringError(inconvertibleErrorCode(),
                             "no manifest for %s", PR.Name.c_str());
  Expected<FetchRequest> FR = fetchRequestFor(*Pkg, PR.Ver);
  if (!FR)
    return FR.takeError();
  if (S.DryRun) {
    OS << PR.Name << " " << Ver << ": build from source ("
       << buildKindName(Pkg->Kind) << ")";
    if (PR.Nvcc)
      OS << " with nvcc " << PR.Nvcc->Ver.str();
    if (PR.Compiler)
      OS << " and " << PR.Compiler->Family << " " << PR.Compiler->Ver.str();
    OS << '\n';
    printPlanForSource(S, *Pkg, PR, F, *FR);
    if (S.Install)
      OS << "  install: " << (F.Python ? F.Python->Path : "python")
         << " -m pip install --no-deps <the wheel>\n";
    return Error::success();
  }
  auto Start = std::chrono::steady_clock::now();
  FetchOptions FO;
  FO.CacheDir = S.CacheDir;
  FO.Offline = S.Opts.has("--offline");
  FO.Observer = S.Prog.get();
  S.Prog->startTimer();
  Expected<FetchedSource> Src = fetchSource(*FR, FO);
  S.Prog->finish();
  if (!Src)
    return Src.takeError();
  // --locked: the tag must still be at the commit the lock records.
  if (auto It = S.LockedCommits.find(PR.Name);
      It != S.LockedCommits.end() && It->second != Src->Commit)
    return createStringError(
        inconvertibleErrorCode(),
        "%s: tag '%s' of %s is at commit %s, but %s records %s: the tag "
        "moved since the lock was written; nothing was built",
        PR.Name.c_str(), FR->Tag.Value.c_str(), FR->Url.Value.c_str(),
        Src->Commit.c_str(), S.LockFile.c_str(), It->second.c_str());
  if (Src->Reused)
    S.Prog->line("  " + PR.Name + ": sources in the cache at " +
                 Src->Commit.substr(0, 12) + " (" + Src->Dir + ")");
  else
    S.Prog->line("  " + PR.Name + ": fetched " + FR->Url.Value + " at " +
                 FR->Tag.Value + " (" + Src->Commit.substr(0, 12) + "), " +
                 S.Prog->fetchSummary() +
                 (Src->Submodules ? ", " + std::to_string(Src->Submodules) +
                                        " submodule(s)"
                                  : "") +
                 " in " + seconds(Start));
  Expected<BuildOutcome> B =
      buildPackage(*Pkg, PR, F, *Src, buildOptionsFor(S));
  S.Prog->finish();
  if (!B)
    return B.takeError();
  OS << PR.Name << " " << Ver << ": "
     << (B->CacheHit ? "cache hit" : "built") << " for "
     << (PR.Archs.empty() ? std::string("its own archs") : join(PR.Archs, ", "))
     << " in " << seconds(Start) << " -> " << B->Entry.OutDir << '\n';
  for (const std::string &W : B->Entry.Wheels) {
    OS << "  wheel: " << sys::path::filename(W) << '\n';
    if (S.Install)
      S.ToInstall.push_back(W);
  }
  if (S.Install && B->Entry.Wheels.empty())
    OS << "  (a " << buildKindName(Pkg->Kind)
       << " build: nothing for pip to install; the artifacts are in "
       << B->Entry.OutDir << ")\n";
  return Error::success();
}

/// --provision: install the toolkit that lets packages without a build
/// build from source, then resolve again with it. Under --dry-run the plan
/// says what would be installed and goes on as if it were. Returns an exit
/// code when the command must stop.
std::optional<int> provisionToolkit(Session &S, Prepared &P) {
  Context &Ctx = S.Ctx;
  Workspace &WS = *P.W;
  const PackageLookup Lookup = [&WS](StringRef N) { return WS.find(N); };
  std::string Store = toolkitStore();
  Expected<std::optional<ProvisionChoice>> Choice = chooseProvision(
      P.Request, Lookup, P.Machine.F, WS.KB, P.Result, Store);
  if (!Choice) {
    // Nothing can be provisioned: said, and the build goes on as resolved.
    Ctx.Err << "cudadeps: " << toString(Choice.takeError()) << '\n';
    return std::nullopt;
  }
  if (!*Choice)
    return std::nullopt;
  ProvisionChoice &C = **Choice;
  if (C.For.empty()) {
    Ctx.Err << "cudadeps: --provision: nvcc " << C.Row->Cuda.str() << " ("
            << C.Why << ") would not let "
            << join(packagesWithoutBuild(P.Result, Lookup), ", ")
            << " build from source here; nothing was provisioned\n";
    return std::nullopt;
  }
  InstallRequest R;
  R.Version = C.Request;
  R.From = S.Opts.get("--provision-from");
  R.Store = Store;
  R.Machine = toolkitMachineArch();
  if (P.Machine.F.Python)
    R.Python = P.Machine.F.Python->Path;
  Expected<InstallPlan> Plan = planToolkitInstall(R, WS.KB);
  if (!Plan) {
    Ctx.Err << "cudadeps: --provision: " << toString(Plan.takeError())
            << '\n';
    return std::nullopt;
  }
  std::string Line = "provision: " + describeToolkitPlan(*Plan) + " into " +
                     Store + "/" + C.Row->Cuda.str() + ", for " +
                     join(C.For, ", ") + " (" + C.Why + ")";
  if (S.DryRun) {
    Ctx.Out << "  " << Line << '\n';
  } else {
    if (Plan->How == ToolkitOrigin::Kind::Pypi && S.Opts.has("--offline")) {
      Ctx.Err << "cudadeps: error: --provision downloads NVIDIA's wheels from "
                 "PyPI, which --offline forbids; give a directory of them with "
                 "--provision-from DIR\n";
      return ExitUsage;
    }
    S.Prog->line(Line);
    struct Steps : InstallObserver {
      Progress &Prog;
      explicit Steps(Progress &P) : Prog(P) {}
      void onStep(StringRef What) override { Prog.line("  " + What.str()); }
    } Observer(*S.Prog);
    Expected<InstallResult> Done =
        installToolkit(R, *Plan, S.Runner, Observer);
    if (!Done) {
      Error E = Done.takeError();
      if (E.isA<InterruptedError>()) {
        consumeError(std::move(E));
        Ctx.Err << "cudadeps: interrupted; no toolkit was installed\n";
        return ExitInterrupted;
      }
      return reportError(std::move(E), Ctx, ExitBuildFailure);
    }
    S.Prog->line((Done->AlreadyInstalled ? "  toolkit " + C.Row->Cuda.str() +
                                               " was already installed in "
                                         : "  provisioned toolkit " +
                                               C.Row->Cuda.str() + " in ") +
                 Done->Root);
  }
  // The toolkit joins the facts; the resolution with it was made when it
  // was chosen.
  SmallString<256> Root(Store);
  sys::path::append(Root, C.Row->Cuda.str());
  P.Machine.F.Nvccs.push_back(provisionedNvcc(*C.Row, Root, WS.KB));
  // A dry run says which nvcc the plan below builds with: the one the
  // provisioning would install.
  if (S.DryRun)
    Ctx.Out << "    then builds with nvcc " << P.Machine.F.Nvccs.back().Path
            << '\n';
  P.Result = std::move(C.After);
  return std::nullopt;
}

/// build and install, on a Context whose streams show every line through
/// printableText (paths, names and tool messages fill most of it).
static int buildOrInstall(Context &Ctx, const ParsedOptions &Opts,
                          bool Install) {
  StringRef Name = Install ? "install" : "build";
  if (Opts.Positionals.empty()) {
    Ctx.Err << "cudadeps: error: " << Name
            << " needs a MANIFEST or package requirements\n"
               "usage: cudadeps "
            << Name << " MANIFEST|REQUIREMENT... [options]\n";
    return ExitUsage;
  }
  Session S{Ctx, Opts};
  S.Install = Install;
  S.DryRun = Opts.has("--dry-run");
  S.CacheDir = cacheDirFrom(Opts);
  S.BaseEnv = RealEnvironment().all();
  // Progress redraws its line with escapes of its own; it shows each of
  // its lines through printableText.
  S.Prog = std::make_unique<Progress>(unfilteredErr(Ctx));
  if (Opts.has("--jobs")) {
    unsigned J = 0;
    if (StringRef(Opts.get("--jobs")).getAsInteger(10, J) || J == 0 ||
        J > 4096) {
      Ctx.Err << "cudadeps: error: invalid --jobs '" << Opts.get("--jobs")
              << "': expected a number from 1 to 4096\n";
      return ExitUsage;
    }
    S.Jobs = J;
  }
  Expected<std::string> L =
      chooseLauncher(Opts.get("--launcher", "auto"), S.BaseEnv["PATH"]);
  if (!L)
    return reportError(L.takeError(), Ctx, ExitUsage);
  S.Launcher = *L;

  Expected<Prepared> P = prepareAndResolve(Ctx, Opts, Opts.Positionals);
  if (!P)
    return reportError(P.takeError(), Ctx, ExitUsage);
  if (Opts.has("--provision-from") && !Opts.has("--provision")) {
    Ctx.Err << "cudadeps: error: --provision-from DIR goes with --provision\n";
    return ExitUsage;
  }
  if (Opts.has("--provision") && Opts.has("--locked"))
    Ctx.Err << "cudadeps: --provision is ignored with --locked: a locked "
               "build uses the toolkit its lock names\n";
  if (Opts.has("--provision") && !Opts.has("--locked")) {
    if (S.DryRun)
      Ctx.Out << "plan (nothing is run; cache " << S.CacheDir
              << (S.Launcher.empty() ? "" : ", launcher " + S.Launcher)
              << "):\n";
    auto OldInt = std::signal(SIGINT, onInterruptSignal);
    std::optional<int> Stop = provisionToolkit(S, *P);
    std::signal(SIGINT, OldInt);
    if (Stop)
      return *Stop;
  }
  if (P->Result.Status == ResolveStatus::Unsatisfiable) {
    renderText(P->Result, unfilteredOut(Ctx), Ctx.Color);
    return ExitUnsatisfiable;
  }
  if (Opts.has("--lock") && !Opts.has("--locked")) {
    Ctx.Err << "cudadeps: error: --lock FILE names the lock --locked checks; "
               "write a lock with `cudadeps resolve MANIFEST --lock FILE`\n";
    return ExitUsage;
  }
  if (Opts.has("--locked")) {
    Expected<std::optional<LockOutcome>> L =
        applyLockOptions(Ctx, Opts, *P->W, P->Result, P->Machine.F,
                         Opts.Positionals.front());
    if (!L)
      return reportError(L.takeError(), Ctx, ExitUsage);
    if (!(*L)->Drift.empty()) {
      renderText(P->Result, unfilteredOut(Ctx), Ctx.Color);
      renderLockText(**L, Ctx.Out);
      Ctx.Out << "nothing was built: the lock does not hold\n";
      return ExitUnsatisfiable;
    }
    renderLockText(**L, Ctx.Err);
    S.Locked = true;
    S.LockFile = (*L)->File;
    S.LockedCommits = (*L)->LockedCommits;
  }

  auto OldInt = std::signal(SIGINT, onInterruptSignal);
  auto OldTerm = std::signal(SIGTERM, onInterruptSignal);
  auto Restore = make_scope_exit([&] {
    std::signal(SIGINT, OldInt);
    std::signal(SIGTERM, OldTerm);
  });

  if (S.DryRun && !(Opts.has("--provision") && !Opts.has("--locked")))
    Ctx.Out << "plan (nothing is run; cache " << S.CacheDir
            << (S.Launcher.empty() ? "" : ", launcher " + S.Launcher)
            << "):\n";
  // A published binary that turns out not to exist is excluded and the
  // project resolved again: the package falls through to its next strategy.
  for (unsigned Round = 0;; ++Round) {
    bool Again = false;
    for (const PackageResolution &PR : P->Result.Packages) {
      Error E = carryOut(S, *P, PR);
      if (!E)
        continue;
      // Under --locked the decision is the lock's: no other strategy.
      if (E.isA<PrebuiltNotFound>() && Round < 8 && !S.Locked) {
        std::string Url = PR.PrebuiltUrl.value_or("");
        std::string Why;
        handleAllErrors(std::move(E), [&](const PrebuiltNotFound &N) {
          Why = N.message();
        });
        S.Prog->line("  " + PR.Name + ": " + Why +
                     "; trying the next strategy");
        P->Request.UnavailablePrebuilts[Url] = Why;
        Workspace &WS = *P->W;
        const PackageLookup Lookup = [&WS](StringRef N) {
          return WS.find(N);
        };
        Expected<Resolution> R =
            resolve(P->Request, Lookup, P->Machine.F, WS.KB);
        if (!R)
          return reportRunError(S, R.takeError());
        P->Result = std::move(*R);
        if (P->Result.Status == ResolveStatus::Unsatisfiable) {
          renderText(P->Result, unfilteredOut(Ctx), Ctx.Color);
          return ExitUnsatisfiable;
        }
        S.ToInstall.clear();
        Again = true;
        break;
      }
      return reportRunError(S, std::move(E));
    }
    if (!Again)
      break;
  }

  if (S.Install && !S.ToInstall.empty()) {
    PipOptions PO = pipOptionsFor(S, P->Machine.F);
    if (PO.Python.empty()) {
      Ctx.Err << "cudadeps: error: install needs a Python (the facts have no "
                 "[python])\n";
      return ExitBuildFailure;
    }
    std::vector<std::string> Argv = pipInstallArgv(
        PO, S.ToInstall, BuildCache(S.CacheDir).wheelsDir());
    if (S.DryRun) {
      Ctx.Out << "install:\n  " << showArgv(Argv) << '\n';
    } else {
      S.Prog->line("  installing: " + showArgv(Argv));
      if (Error E = runPip(Argv, PO, "pip install"))
        return reportRunError(S, std::move(E));
      Ctx.Out << "installed into " << PO.Python << ": "
              << S.ToInstall.size() << " package"
              << (S.ToInstall.size() == 1 ? "" : "s") << '\n';
    }
  }
  return P->Result.Status == ResolveStatus::Unsatisfiable ? ExitUnsatisfiable
                                                          : ExitOk;
}

} // namespace

ArrayRef<OptionSpec> buildOptions() {
  static const std::vector<OptionSpec> Specs = buildOptionTable();
  return Specs;
}

int runBuildOrInstall(Context &Ctx, const ParsedOptions &Opts, bool Install) {
  PrintableContext Shown(Ctx);
  return buildOrInstall(Shown.get(), Opts, Install);
}

int runBuild(Context &Ctx, const ParsedOptions &Opts) {
  return runBuildOrInstall(Ctx, Opts, /*Install=*/false);
}

int runInstall(Context &Ctx, const ParsedOptions &Opts) {
  return runBuildOrInstall(Ctx, Opts, /*Install=*/true);
}

} // namespace cudadeps::cli
