//===- DriverProbe.cpp - the "driver" probe: NVIDIA driver and GPUs -------===//

#include "plugins/driver/DriverProbe.h"

#include "plugins/driver/LibcudaQuery.h"
#include "plugins/platform/HostFiles.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Regex.h"

#include <spdlog/spdlog.h>

namespace cudadeps {
namespace driver {

std::optional<std::string> parseProcDriverVersion(llvm::StringRef Text) {
  llvm::SmallVector<llvm::StringRef, 4> Lines;
  Text.split(Lines, '\n');
  llvm::Regex Dotted("^[0-9]+\\.[0-9]+(\\.[0-9]+)?$");
  for (llvm::StringRef Line : Lines) {
    if (!Line.startswith("NVRM version:"))
      continue;
    size_t At = Line.find("Module");
    if (At == llvm::StringRef::npos)
      continue;
    llvm::SmallVector<llvm::StringRef, 16> Tokens;
    Line.drop_front(At).split(Tokens, ' ', -1, /*KeepEmpty=*/false);
    for (llvm::StringRef Token : Tokens)
      if (Dotted.match(Token.trim()))
        return Token.trim().str();
  }
  return std::nullopt;
}

std::vector<SmiGpu> parseNvidiaSmi(llvm::StringRef Out, bool WithComputeCap) {
  std::vector<SmiGpu> Gpus;
  llvm::SmallVector<llvm::StringRef, 8> Lines;
  Out.split(Lines, '\n', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef Line : Lines) {
    SmiGpu G;
    auto [Driver, Rest] = Line.split(',');
    G.DriverVersion = Driver.trim().str();
    if (WithComputeCap) {
      auto [Cap, Name] = Rest.split(',');
      G.ComputeCap = Cap.trim().str();
      G.Name = Name.trim().str();
    } else {
      G.Name = Rest.trim().str();
    }
    if (!G.DriverVersion.empty() && !G.Name.empty())
      Gpus.push_back(std::move(G));
  }
  return Gpus;
}

} // namespace driver

namespace {

using namespace probes;

constexpr const char *SmiQuery = "--query-gpu=driver_version,compute_cap,name";
constexpr const char *SmiQueryNoCap = "--query-gpu=driver_version,name";

static std::optional<Version> parseVersionOrWarn(llvm::StringRef Text,
                                                 llvm::StringRef From,
                                                 ProbeAnswer &Answer) {
  llvm::Expected<Version> V = Version::parse(Text);
  if (V)
    return std::move(*V);
  Answer.Warnings.push_back(From.str() + ": cannot read version '" + Text.str() +
                            "': " + llvm::toString(V.takeError()));
  return std::nullopt;
}

class DriverProbe : public Probe {
public:
  llvm::StringRef name() const override { return "driver"; }
  llvm::StringRef version() const override { return "1"; }
  llvm::Expected<ProbeAnswer> probe(const ProbeContext &Ctx) override;
  /// libcuda is loaded and asked in an isolated (forked) child.
  bool forksChildren() const override { return true; }

private:
  void askLibcuda(const ProbeContext &Ctx, DriverFacts &Driver,
                  ProbeAnswer &Answer) const;
  void readKernelModule(const ProbeContext &Ctx, DriverFacts &Driver,
                        ProbeAnswer &Answer) const;
  void askNvidiaSmi(const ProbeContext &Ctx, DriverFacts &Driver,
                    ProbeAnswer &Answer) const;
};

void DriverProbe::askLibcuda(const ProbeContext &Ctx, DriverFacts &Driver,
                             ProbeAnswer &Answer) const {
  std::vector<std::string> Libraries;
  std::optional<std::string> Explicit = Ctx.Env.get("CUDADEPS_LIBCUDA");
  if (Explicit && !Explicit->empty())
    Libraries = {*Explicit};
  else
    // The soname first (ld.so.cache, LD_LIBRARY_PATH), then where the
    // distributions and WSL put it; never the unversioned stub name.
    Libraries = {"libcuda.so.1", "/usr/lib64/nvidia/libcuda.so.1",
                 "/usr/lib/x86_64-linux-gnu/libcuda.so.1",
                 "/usr/lib/aarch64-linux-gnu/libcuda.so.1",
                 "/usr/lib/wsl/lib/libcuda.so.1"};

  // Where a libcuda installed later would appear: the cached answer is
  // stale when one of these changes.
  if (Libraries.size() == 1) {
    appendUnique(Answer.Inputs, Libraries.front());
  } else {
    appendUnique(Answer.Inputs, "/etc/ld.so.cache");
    for (const std::string &Dir :
         splitSearchPath(Ctx.Env.get("LD_LIBRARY_PATH").value_or("")))
      appendUnique(Answer.Inputs, joinPath(Dir, "libcuda.so.1"));
    for (const std::string &L : Libraries)
      if (llvm::StringRef(L).startswith("/"))
        appendUnique(Answer.Inputs, L);
  }

  std::chrono::milliseconds Timeout = Ctx.timeLeftFor(Ctx.CommandTimeout);
  if (Timeout.count() == 0) {
    Answer.Warnings.push_back("the CUDA driver was not queried: the probe "
                              "phase's deadline had passed");
    Answer.TimedOut.push_back({"the libcuda query", Timeout});
    return;
  }
  driver::LibcudaOutcome Outcome = driver::queryLibcuda(Libraries, Timeout);
  const driver::LibcudaReport &R = Outcome.Report;
  std::string Lib = R.Library.empty() ? Libraries.front() : R.Library;
  if (!R.Library.empty())
    appendUnique(Answer.Inputs, R.Library);

  if (!Outcome.SpawnError.empty()) {
    Answer.Warnings.push_back("cannot query the CUDA driver: " +
                              Outcome.SpawnError);
    return;
  }
  if (Outcome.TimedOut) {
    std::string Step = R.Library.empty()     ? "loading it"
                       : !R.InitResult       ? "cuInit"
                       : !R.DriverVersion    ? "cuDriverGetVersion"
                                             : "the device query";
    Answer.Warnings.push_back(Lib + ": " + Step + " timed out after " +
                              formatSeconds(Timeout));
    Answer.TimedOut.push_back({Lib + ": " + Step, Timeout});
  } else if (Outcome.Signal) {
    Answer.Warnings.push_back(Lib + ": the driver query crashed with signal " +
                              std::to_string(Outcome.Signal));
  } else if (Outcome.OverCap) {
    Answer.Warnings.push_back(Lib + ": the driver query said more than " +
                              std::to_string(driver::MaxReportBytes) +
                              " bytes and was stopped");
  }
  if (R.DeviceCount && *R.DeviceCount > driver::MaxDevices)
    Answer.Warnings.push_back(
        Lib + ": cuDeviceGetCount reported " + std::to_string(*R.DeviceCount) +
        " devices; only the first " + std::to_string(driver::MaxDevices) +
        " were asked about");
  if (!R.LoadError.empty()) {
    Answer.Searched.push_back(Libraries.front() + " (" + R.LoadError + ")");
    spdlog::debug("driver probe: cannot load libcuda: {}", R.LoadError);
    return;
  }
  Answer.Searched.push_back(Lib);
  if (!R.MissingSymbol.empty())
    Answer.Warnings.push_back(Lib + " has no " + R.MissingSymbol);
  if (R.InitResult && *R.InitResult != 0) {
    llvm::StringRef Name = driver::cudaErrorName(*R.InitResult);
    Answer.Warnings.push_back(Lib + ": cuInit failed with error " +
                              std::to_string(*R.InitResult) +
                              (Name.empty() ? "" : " (" + Name.str() + ")"));
  }
  for (const std::string &E : R.DeviceErrors)
    Answer.Warnings.push_back(Lib + ": " + E);

  if (R.DriverVersion && *R.DriverVersion > 0) {
    int V = *R.DriverVersion;
    Driver.Cuda = Version({static_cast<uint64_t>(V / 1000),
                           static_cast<uint64_t>((V % 1000) / 10)});
    Driver.CudaSource = Source::probed("driver", Lib + " cuDriverGetVersion");
  }
  for (const driver::LibcudaGpu &G : R.Gpus) {
    if (G.Major < 0 || G.Minor < 0 || G.Major > 1000 || G.Minor > 1000) {
      Answer.Warnings.push_back(
          Lib + ": device " + std::to_string(G.Ordinal) +
          " reports an invalid compute capability " + std::to_string(G.Major) +
          "." + std::to_string(G.Minor) + "; the device is ignored");
      continue;
    }
    GpuFacts F;
    F.Name = G.Name;
    F.ComputeCapability = Version({static_cast<uint64_t>(G.Major),
                                   static_cast<uint64_t>(G.Minor)});
    F.From = Source::probed("driver", Lib + " cuDeviceGetAttribute");
    Answer.Found.Gpus.push_back(std::move(F));
  }
}

void DriverProbe::readKernelModule(const ProbeContext &Ctx, DriverFacts &Driver,
                                   ProbeAnswer &Answer) const {
  std::string Proc = underRoot(Ctx.SysRoot, "/proc/driver/nvidia/version");
  std::string Sys = underRoot(Ctx.SysRoot, "/sys/module/nvidia/version");
  Answer.Searched.push_back(Proc);
  Answer.Searched.push_back(Sys);
  Answer.Inputs.push_back(Proc);
  std::optional<std::string> Text;
  std::string From;
  if (std::optional<std::string> P = readTextFile(Proc, 64 << 10)) {
    Text = driver::parseProcDriverVersion(*P);
    From = Proc;
    if (!Text)
      Answer.Warnings.push_back(Proc + " names no driver version");
  }
  if (!Text) {
    if (std::optional<std::string> S = readTextFile(Sys, 4096)) {
      Answer.Inputs.push_back(Sys);
      llvm::StringRef Trimmed = llvm::StringRef(*S).trim();
      if (!Trimmed.empty()) {
        Text = Trimmed.str();
        From = Sys;
      }
    }
  }
  if (!Text)
    return;
  if (std::optional<Version> V = parseVersionOrWarn(*Text, From, Answer)) {
    Driver.KernelVersion = std::move(*V);
    Driver.KernelSource = Source::probed("driver", From);
  }
}

void DriverProbe::askNvidiaSmi(const ProbeContext &Ctx, DriverFacts &Driver,
                               ProbeAnswer &Answer) const {
  std::vector<std::string> Smis =
      searchPath(Ctx.Env, "PATH", "nvidia-smi", Answer.Searches);
  std::string Smi = Smis.empty() ? std::string() : Smis.front();
  Answer.Searched.push_back("nvidia-smi on $PATH");
  if (Smi.empty())
    return;
  Answer.Inputs.push_back(Smi);
  // Drivers before about 510 do not know compute_cap: ask again without it.
  for (bool WithCap : {true, false}) {
    const char *Query = WithCap ? SmiQuery : SmiQueryNoCap;
    std::string What = Smi + " " + Query;
    std::optional<ProcessResult> Result =
        runTool(Ctx, {Smi, Query, "--format=csv,noheader"}, What, Answer);
    if (!Result)
      return;
    if (Result->ExitCode != 0) {
      spdlog::debug("driver probe: {} exited with code {}: {}{}", What,
                    Result->ExitCode, Result->Out, Result->Err);
      continue;
    }
    std::vector<driver::SmiGpu> Gpus = driver::parseNvidiaSmi(Result->Out, WithCap);
    if (Gpus.empty())
      return;
    if (!Driver.KernelVersion) {
      if (std::optional<Version> V =
              parseVersionOrWarn(Gpus.front().DriverVersion, What, Answer)) {
        Driver.KernelVersion = std::move(*V);
        Driver.KernelSource = Source::probed("driver", What);
      }
    }
    if (!Answer.Found.Gpus.empty() || !WithCap)
      return;
    for (const driver::SmiGpu &G : Gpus) {
      llvm::Expected<Version> Cap = Version::parse(G.ComputeCap);
      if (!Cap) {
        llvm::consumeError(Cap.takeError());
        continue;
      }
      GpuFacts F;
      F.Name = G.Name;
      F.ComputeCapability = std::move(*Cap);
      F.From = Source::probed("driver", What);
      Answer.Found.Gpus.push_back(std::move(F));
    }
    return;
  }
}

llvm::Expected<ProbeAnswer> DriverProbe::probe(const ProbeContext &Ctx) {
  ProbeAnswer Answer;
  // $PATH is not an input: the search for nvidia-smi is.
  Answer.EnvInputs = {"CUDADEPS_LIBCUDA", "LD_LIBRARY_PATH"};
  DriverFacts Driver;
  askLibcuda(Ctx, Driver, Answer);
  readKernelModule(Ctx, Driver, Answer);
  if (!Driver.KernelVersion || (!Driver.Cuda && Answer.Found.Gpus.empty()))
    askNvidiaSmi(Ctx, Driver, Answer);

  if (!Driver.KernelVersion && !Driver.Cuda && Answer.Found.Gpus.empty()) {
    return notPresentKeeping(std::move(Answer), "no NVIDIA driver found");
  }
  Answer.Found.Driver = std::move(Driver);
  Answer.What = ProbeAnswer::Kind::Found;
  return Answer;
}

} // namespace

std::unique_ptr<Probe> createDriverProbe() {
  return std::make_unique<DriverProbe>();
}

} // namespace cudadeps
