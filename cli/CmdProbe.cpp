//===- CmdProbe.cpp - cudadeps probe: what this machine has ----------------===//
//
// Text: a summary of what was found where, what is missing (with what was
// searched), what looks inconsistent, and probe warnings. TOML: the facts
// file (`--facts` reads it back). JSON: one document with the facts (with
// sources), the per-probe reports and the plugin load failures.
//
//===----------------------------------------------------------------------===//
#include "cli/Commands.h"
#include "cli/ExitCodes.h"
#include "cli/MachineSetup.h"
#include "core/facts/FactsFile.h"
#include "core/support/Printable.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

using namespace llvm;

namespace cudadeps::cli {

ArrayRef<OptionSpec> probeOptions() {
  static const std::vector<OptionSpec> Options = [] {
    std::vector<OptionSpec> O = {
        {"--format", "", "FORMAT", "output format: text, toml or json", false,
         {"text", "toml", "json"}}};
    for (const OptionSpec &S : machineOptions())
      O.push_back(S);
    return O;
  }();
  return Options;
}

static std::string ver(const std::optional<Version> &V) {
  return V ? V->str() : "?";
}

/// One "label  value" line, with the source on the next line.
static void line(raw_ostream &OS, StringRef Label, const Twine &Value,
                 const Source &From) {
  OS << "  " << left_justify(Label, 10) << ' ' << Value << '\n';
  std::string Where = From.describe();
  if (!Where.empty())
    OS << "  " << left_justify("", 10) << "   " << Where << '\n';
}

static void renderFacts(const Facts &F, raw_ostream &OS) {
  if (F.Driver) {
    const DriverFacts &D = *F.Driver;
    std::string Text = "driver " + ver(D.KernelVersion) +
                       (D.Cuda ? ", supports CUDA up to " + D.Cuda->str() : "");
    line(OS, "driver", Text, D.KernelVersion ? D.KernelSource : D.CudaSource);
  }
  for (const GpuFacts &G : F.Gpus)
    line(OS, "gpu",
         (G.Name.empty() ? "GPU" : G.Name) + " (compute capability " +
             G.ComputeCapability.str() + ", " + G.smArch() + ")",
         G.From);
  for (const NvccFacts &N : F.Nvccs) {
    std::string Text = N.Ver.str() + "  " + N.Path;
    SmallVector<std::string, 3> Extra;
    if (N.MaxGcc)
      Extra.push_back("gcc <= " + std::to_string(*N.MaxGcc));
    if (N.MaxClang)
      Extra.push_back("clang <= " + std::to_string(*N.MaxClang));
    if (!N.Archs.empty())
      Extra.push_back(N.Archs.front() + " .. " + N.Archs.back());
    if (!Extra.empty())
      Text += "  (" + join(Extra, ", ") + ")";
    line(OS, "nvcc", Text, N.From);
  }
  for (const CompilerFacts &C : F.Compilers)
    line(OS, "compiler", C.Family + " " + C.Ver.str() + "  " + C.Path, C.From);
  if (F.Python)
    line(OS, "python", F.Python->Ver.str() + "  " + F.Python->Path,
         F.Python->From);
  if (F.Torch) {
    const TorchFacts &T = *F.Torch;
    std::string Text = T.Ver.str() + (T.Cuda ? " (CUDA " + T.Cuda->str() + ")"
                                      : T.CudaUnknown
                                          ? std::string(" (CUDA unknown)")
                                          : std::string(" (CPU build)"));
    Text += !T.Cxx11Abi   ? ", C++ ABI unknown"
            : *T.Cxx11Abi ? ", cxx11 abi"
                          : ", pre-cxx11 abi";
    line(OS, "torch", Text, T.From);
    // Where the ABI came from, unless that is torch's own facts file.
    bool SameFile = T.AbiFrom.How == Source::Kind::Declared &&
                    (T.AbiFrom.By.empty() ||
                     (T.From.How == Source::Kind::Declared &&
                      T.AbiFrom.By == T.From.By));
    if (T.Cxx11Abi && !SameFile && !T.AbiFrom.describe().empty())
      OS << "  " << left_justify("", 10) << "   C++ ABI "
         << T.AbiFrom.describe() << '\n';
  }
  // A Python environment holds hundreds of distributions: list a few.
  constexpr size_t MaxPackages = 8;
  if (F.Packages.size() <= MaxPackages) {
    for (const auto &[Name, P] : F.Packages)
      line(OS, "package", Name + " " + P.Ver.str(), P.From);
  } else {
    std::string Some;
    size_t N = 0;
    for (const auto &[Name, P] : F.Packages) {
      if (N++ == 4)
        break;
      Some += Name + " " + P.Ver.str() + ", ";
    }
    OS << "  " << left_justify("packages", 10) << ' ' << F.Packages.size()
       << " Python distributions (" << Some
       << "...; --format toml lists all)\n";
  }
  if (F.Platform) {
    const PlatformFacts &P = *F.Platform;
    std::string Text = P.Os + " " + P.Arch;
    if (P.Cpus)
      Text += ", " + std::to_string(*P.Cpus) + " cpus";
    if (P.MemoryGib)
      Text += formatv(", {0:f1} GiB", *P.MemoryGib).str();
    if (P.Glibc)
      Text += ", glibc " + P.Glibc->str();
    line(OS, "platform", Text, P.From);
  }
}

/// What is absent, with what the responsible probe searched.
static std::vector<std::string> missing(const MachineFacts &M) {
  const Facts &F = M.F;
  std::vector<std::string> Out;
  auto Searched = [&](StringRef Probe) -> std::string {
    for (const ProbeReport &R : M.Reports)
      if (R.Name == Probe && !R.Searched.empty())
        return " (searched: " + join(R.Searched, ", ") + ")";
    if (!M.FactsFile.empty())
      return " (not in " + M.FactsFile + ")";
    return "";
  };
  if (!F.Driver && F.Gpus.empty())
    Out.push_back("no NVIDIA driver and no GPU visible" + Searched("driver"));
  else if (!F.Driver)
    Out.push_back("no NVIDIA driver" + Searched("driver"));
  else if (F.Gpus.empty())
    Out.push_back("no GPU visible" + Searched("driver"));
  if (F.Nvccs.empty())
    Out.push_back("no nvcc (CUDA toolkit)" + Searched("nvcc"));
  if (F.Compilers.empty())
    Out.push_back("no host C++ compiler" + Searched("compiler"));
  if (!F.Python)
    Out.push_back("no Python" + Searched("cuda-runtime"));
  else if (!F.Torch)
    Out.push_back("no torch" + Searched("cuda-runtime"));
  return Out;
}

static void renderText(const MachineFacts &M, raw_ostream &OS) {
  if (!M.FactsFile.empty()) {
    OS << "machine described by " << M.FactsFile << " (nothing probed)\n";
  } else {
    unsigned Cached = count_if(M.Reports,
                               [](const ProbeReport &R) { return R.FromCache; });
    OS << "probes:\n";
    for (const ProbeReport &R : M.Reports) {
      OS << "  " << left_justify(R.Name, 13) << ' '
         << left_justify(statusName(R.What), 12) << ' '
         << (R.FromCache ? "cached" : formatv("{0} ms", R.Elapsed.count()).str());
      if (R.Origin != "built-in")
        OS << "  from " << R.Origin;
      OS << '\n';
      if (R.What != ProbeReport::Status::Found && !R.Reason.empty())
        OS << "  " << left_justify("", 13) << "   " << R.Reason << '\n';
    }
    if (M.Reports.empty())
      OS << "  (none)\n";
    if (Cached)
      OS << "  (" << Cached << " answer" << (Cached == 1 ? "" : "s")
         << " from the probe cache; --refresh probes again)\n";
  }

  OS << "\nfound:\n";
  std::string Found;
  raw_string_ostream FS(Found);
  renderFacts(M.F, FS);
  OS << (Found.empty() ? "  nothing\n" : Found);

  std::vector<std::string> Missing = missing(M);
  if (!Missing.empty()) {
    OS << "\nmissing:\n";
    for (const std::string &L : Missing)
      OS << "  " << L << '\n';
  }
  std::vector<std::string> Odd = findInconsistencies(M.F);
  if (!Odd.empty()) {
    OS << "\ninconsistent:\n";
    for (const std::string &L : Odd)
      OS << "  " << L << '\n';
  }
  std::vector<std::string> Warnings;
  for (const ProbeReport &R : M.Reports) {
    for (const std::string &W : R.Warnings)
      Warnings.push_back(R.Name + ": " + W);
    if (R.What == ProbeReport::Status::Error)
      Warnings.push_back(R.Reason);
  }
  for (const PluginLoadFailure &F : M.PluginFailures)
    Warnings.push_back(F.Message);
  if (!Warnings.empty()) {
    OS << "\nwarnings:\n";
    for (const std::string &L : Warnings)
      OS << "  " << L << '\n';
  }
}

static json::Value strings(const std::vector<std::string> &L) {
  json::Array A;
  for (const std::string &S : L)
    A.push_back(S);
  return json::Value(std::move(A));
}

static json::Value timeouts(const ProbeReport &R) {
  json::Array A;
  for (const ProbeTimeout &T : R.TimedOut)
    A.push_back(
        json::Object{{"what", T.What}, {"after_ms", int64_t(T.After.count())}});
  return json::Value(std::move(A));
}

static json::Value renderJson(const MachineFacts &M) {
  json::Array Probes;
  for (const ProbeReport &R : M.Reports)
    Probes.push_back(json::Object{{"name", R.Name},
                                  {"version", R.Version},
                                  {"origin", R.Origin},
                                  {"status", statusName(R.What)},
                                  {"reason", R.Reason},
                                  {"searched", strings(R.Searched)},
                                  {"warnings", strings(R.Warnings)},
                                  {"timed_out", timeouts(R)},
                                  {"cached", R.FromCache},
                                  {"elapsed_ms", int64_t(R.Elapsed.count())}});
  json::Array Failures;
  for (const PluginLoadFailure &F : M.PluginFailures)
    Failures.push_back(json::Object{{"path", F.Path}, {"message", F.Message}});
  return json::Object{
      {"facts", factsToJson(M.F)},
      {"facts_file", M.FactsFile.empty() ? json::Value(nullptr)
                                         : json::Value(M.FactsFile)},
      {"probes", std::move(Probes)},
      {"plugin_failures", std::move(Failures)},
      {"inconsistencies", strings(findInconsistencies(M.F))}};
}

int runProbe(Context &Ctx, const ParsedOptions &Opts) {
  if (!Opts.Positionals.empty()) {
    Ctx.Err << "cudadeps: error: probe takes no arguments (got '"
            << Opts.Positionals.front() << "')\n";
    return ExitUsage;
  }
  Expected<MachineFacts> M = gatherMachineFacts(Ctx, Opts);
  if (!M)
    return reportError(M.takeError(), Ctx, ExitUsage);
  // A plugin the user named is an input: failing to load it is an error.
  if (reportPluginFailures(Ctx, M->PluginFailures, Opts.getAll("--plugin")))
    return ExitUsage;

  std::string Format = Opts.get("--format", "text");
  if (Format != "text") {
    // The text summary shows these; keep them visible beside TOML and JSON.
    for (const ProbeReport &R : M->Reports)
      if (R.What == ProbeReport::Status::Error)
        Ctx.Err << "cudadeps: warning: " << printableText(R.Reason) << '\n';
    for (const PluginLoadFailure &F : M->PluginFailures)
      Ctx.Err << "cudadeps: warning: " << printableText(F.Message) << '\n';
  }
  if (Format == "toml") {
    Ctx.Out << writeFactsToml(M->F);
  } else if (Format == "json") {
    Ctx.Out << formatv("{0:2}", renderJson(*M)) << '\n';
  } else {
    // Paths, names and messages come from the machine: shown escaped.
    std::string Text;
    raw_string_ostream OS(Text);
    renderText(*M, OS);
    OS.flush();
    Ctx.Out << printableText(Text, /*KeepLineBreaks=*/true);
  }
  return ExitOk;
}

} // namespace cudadeps::cli
