//===- CmdToolkit.cpp - cudadeps toolkit install|list|remove ---------------===//
#include "cli/Commands.h"
#include "cli/ExitCodes.h"
#include "cli/MachineSetup.h"
#include "cli/PrintableStream.h"
#include "cli/ToolkitPlan.h"
#include "core/support/Interrupt.h"
#include "core/toolkit/ToolkitInstaller.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Triple.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Host.h"
#include "llvm/Support/Path.h"

#include <csignal>

using namespace llvm;

namespace cudadeps::cli {

ArrayRef<OptionSpec> toolkitOptions() {
  static const std::vector<OptionSpec> Specs = [] {
    std::vector<OptionSpec> S = {
        {"--from", "", "DIR|FILE",
         "install: a directory of NVIDIA's wheels (offline), or NVIDIA's CUDA "
         "runfile (cuda_*_linux.run)"},
        {"--python", "", "PATH",
         "install: the Python whose pip downloads the wheels (default: the "
         "facts' Python)"},
    };
    for (OptionSpec &O : machineOptions())
      S.push_back(std::move(O));
    return S;
  }();
  return Specs;
}

std::string toolkitStore() {
  static RealEnvironment Env;
  return toolkitStoreDir(Env);
}

std::string toolkitMachineArch() {
  return Triple(sys::getProcessTriple()).getArchName().str();
}

static std::string storeDir() { return toolkitStore(); }

static std::string mib(uint64_t Bytes) {
  return formatv("{0} MiB", (Bytes + (1 << 19)) >> 20).str();
}

namespace {
class StepPrinter : public InstallObserver {
public:
  explicit StepPrinter(raw_ostream &Err) : Err(Err) {}
  void onStep(StringRef What) override {
    Err << "cudadeps: " << What << '\n';
    Err.flush();
  }

private:
  raw_ostream &Err;
};

extern "C" void onToolkitInterrupt(int) { requestInterrupt(); }
} // namespace

std::string describeToolkitPlan(const InstallPlan &P) {
  std::string Text = "toolkit " + P.Version + " from ";
  switch (P.How) {
  case ToolkitOrigin::Kind::Pypi:
    Text += "NVIDIA's wheels on PyPI";
    break;
  case ToolkitOrigin::Kind::Wheels:
    Text += "the wheels in " + P.From;
    break;
  case ToolkitOrigin::Kind::Runfile:
    Text += "NVIDIA's runfile " + P.From;
    break;
  }
  std::vector<std::string> Parts;
  for (const ChosenWheel &W : P.Wheels)
    Parts.push_back(W.Component + " " + W.Ver.str());
  if (!Parts.empty())
    Text += ": " + join(Parts, ", ");
  std::vector<std::string> Cost;
  if (P.DownloadMiB && P.How == ToolkitOrigin::Kind::Pypi)
    Cost.push_back(formatv("download about {0} MiB", *P.DownloadMiB).str());
  if (P.InstalledMiB)
    Cost.push_back(formatv("about {0} MiB on disk", *P.InstalledMiB).str());
  if (!Cost.empty())
    Text += " (" + join(Cost, ", ") + ")";
  return Text;
}

static Expected<KnowledgeBase> loadKB(Context &Ctx) {
  SmallString<256> Dir(Ctx.installedRegistry());
  sys::path::append(Dir, "cuda");
  return KnowledgeBase::loadDirectory(Dir);
}

static int runToolkitInstall(Context &Ctx, const ParsedOptions &Opts) {
  if (Opts.Positionals.size() != 2) {
    Ctx.Err << "cudadeps: error: toolkit install needs one VERSION\n"
               "usage: cudadeps toolkit install VERSION [--from DIR|FILE]\n";
    return ExitUsage;
  }
  Expected<KnowledgeBase> KB = loadKB(Ctx);
  if (!KB)
    return reportError(KB.takeError(), Ctx, ExitUsage);
  InstallRequest R;
  R.Version = Opts.Positionals[1];
  R.From = Opts.get("--from");
  R.Store = storeDir();
  R.Machine = toolkitMachineArch();
  Expected<InstallPlan> Plan = planToolkitInstall(R, *KB);
  if (!Plan)
    return reportError(Plan.takeError(), Ctx, ExitUsage);
  if (Plan->How == ToolkitOrigin::Kind::Pypi) {
    R.Python = Opts.get("--python");
    if (R.Python.empty()) {
      Expected<MachineFacts> MF = gatherMachineFacts(Ctx, Opts);
      if (!MF)
        return reportError(MF.takeError(), Ctx, ExitUsage);
      if (MF->F.Python)
        R.Python = MF->F.Python->Path;
    }
  }
  Ctx.Err << "cudadeps: installing " << describeToolkitPlan(*Plan) << '\n';
  if (!Plan->Source.empty())
    Ctx.Err << "cudadeps: (versions from the knowledge base: " << Plan->Source
            << ")\n";
  StepPrinter Steps(Ctx.Err);
  RealProcessRunner Runner;
  auto Old = std::signal(SIGINT, onToolkitInterrupt);
  Expected<InstallResult> Done = installToolkit(R, *Plan, Runner, Steps);
  std::signal(SIGINT, Old);
  if (!Done) {
    Error E = Done.takeError();
    if (E.isA<InterruptedError>()) {
      consumeError(std::move(E));
      Ctx.Err << "cudadeps: interrupted; nothing was installed\n";
      return ExitInterrupted;
    }
    return reportError(std::move(E), Ctx, ExitBuildFailure);
  }
  if (Done->AlreadyInstalled) {
    Ctx.Out << "toolkit " << Done->Origin.Version << " is already installed in "
            << Done->Root << '\n';
  } else {
    Ctx.Out << "installed toolkit " << Done->Origin.Version << " in "
            << Done->Root << " (" << mib(Done->Origin.Bytes)
            << "; verified: nvcc --version, a test kernel for "
            << Done->VerifiedArch << ")\n";
  }
  Ctx.Out << "the nvcc probe finds it; to use it directly: export CUDA_HOME="
          << Done->Root << '\n';
  return ExitOk;
}

static int runToolkitList(Context &Ctx, const ParsedOptions &Opts) {
  std::string Store = storeDir();
  std::vector<InstalledToolkit> All = listInstalledToolkits(Store);
  if (All.empty()) {
    Ctx.Out << "no toolkits installed in " << (Store.empty() ? "(no $HOME)" : Store)
            << "; `cudadeps toolkit install VERSION` adds one\n";
    return ExitOk;
  }
  for (const InstalledToolkit &T : All) {
    Ctx.Out << left_justify(T.Ver.str(), 10) << ' ' << T.Root;
    if (T.Origin) {
      Ctx.Out << "  " << mib(T.Origin->Bytes) << ", from "
              << T.Origin->describe();
      if (!T.Origin->InstalledAt.empty())
        Ctx.Out << ", installed " << T.Origin->InstalledAt;
    } else {
      Ctx.Out << "  (no origin record)";
    }
    Ctx.Out << '\n';
  }
  return ExitOk;
}

static int runToolkitRemove(Context &Ctx, const ParsedOptions &Opts) {
  if (Opts.Positionals.size() != 2) {
    Ctx.Err << "cudadeps: error: toolkit remove needs one VERSION\n"
               "usage: cudadeps toolkit remove VERSION\n";
    return ExitUsage;
  }
  std::string Store = storeDir();
  std::string V = Opts.Positionals[1];
  // "13.0" removes the one installed 13.0.x when there is exactly one.
  std::vector<std::string> Matches;
  for (const InstalledToolkit &T : listInstalledToolkits(Store))
    if (T.Ver.str() == V || StringRef(T.Ver.str()).startswith(V + "."))
      Matches.push_back(T.Ver.str());
  if (Matches.size() > 1) {
    Ctx.Err << "cudadeps: error: '" << V << "' matches several toolkits ("
            << join(Matches, ", ") << "); name one\n";
    return ExitUsage;
  }
  if (Matches.empty()) {
    Ctx.Err << "cudadeps: error: toolkit " << V << " is not installed in "
            << Store << " (`cudadeps toolkit list` shows what is)\n";
    return ExitUsage;
  }
  if (Error E = removeToolkit(Store, Matches.front()))
    return reportError(std::move(E), Ctx, ExitUsage);
  Ctx.Out << "removed toolkit " << Matches.front() << '\n';
  return ExitOk;
}

static int toolkit(Context &Ctx, const ParsedOptions &Opts) {
  StringRef Sub = Opts.Positionals.empty() ? "" : StringRef(Opts.Positionals[0]);
  if (Sub == "install")
    return runToolkitInstall(Ctx, Opts);
  if (Sub == "list" && Opts.Positionals.size() == 1)
    return runToolkitList(Ctx, Opts);
  if (Sub == "remove")
    return runToolkitRemove(Ctx, Opts);
  Ctx.Err << "cudadeps: error: "
          << (Sub.empty() ? std::string("toolkit needs a subcommand")
                          : "unknown toolkit subcommand '" + Sub.str() + "'")
          << "\nusage: cudadeps toolkit install VERSION [--from DIR|FILE] | "
             "list | remove VERSION\n";
  return ExitUsage;
}

/// toolkit, on a Context that shows every line through printableText
/// (store paths come from the environment, origin records from disk).
int runToolkit(Context &Ctx, const ParsedOptions &Opts) {
  PrintableContext Shown(Ctx);
  return toolkit(Shown.get(), Opts);
}

} // namespace cudadeps::cli
