#include "core/toolkit/ToolkitInstaller.h"

#include "core/support/BoundedFile.h"
#include "core/support/FileLock.h"
#include "core/support/Interrupt.h"
#include "core/toolkit/NvccOutput.h"
#include "core/toolkit/WheelArchive.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <ctime>
#include <map>

using namespace llvm;

namespace cudadeps {

namespace {

const StringRef Components[] = {"nvidia-cuda-nvcc", "nvidia-cuda-crt",
                                "nvidia-nvvm", "nvidia-cuda-runtime",
                                "nvidia-cuda-cccl"};
/// Components whose version is the toolkit's own (the others, the runtime
/// and CCCL, are published on their own schedule).
const StringRef SameVersion[] = {"nvidia-cuda-nvcc", "nvidia-cuda-crt",
                                 "nvidia-nvvm"};

Error failure(const Twine &Message) {
  return createStringError(inconvertibleErrorCode(), "%s",
                           Message.str().c_str());
}

std::string pathJoin(StringRef A, StringRef B) {
  SmallString<256> P(A);
  sys::path::append(P, B);
  return std::string(P);
}

/// A wheel file in a directory: its distribution (normalised), version and
/// path.
struct WheelFile {
  std::string Dist;
  Version Ver;
  std::string Path;
};

/// PEP 427 file names: {dist}-{version}(-{build})?-{python}-{abi}-{platform}.whl.
std::optional<WheelFile> parseWheelName(StringRef Dir, StringRef Name,
                                        StringRef Machine) {
  if (!Name.consume_back(".whl"))
    return std::nullopt;
  SmallVector<StringRef, 6> Parts;
  Name.split(Parts, '-');
  if (Parts.size() != 5 && Parts.size() != 6)
    return std::nullopt;
  StringRef Platform = Parts.back();
  if (Platform != "any" && !Platform.contains(Machine))
    return std::nullopt;
  Expected<Version> V = Version::parse(Parts[1]);
  if (!V) {
    consumeError(V.takeError());
    return std::nullopt;
  }
  std::string Dist = Parts[0].lower();
  std::replace(Dist.begin(), Dist.end(), '_', '-');
  std::replace(Dist.begin(), Dist.end(), '.', '-');
  return WheelFile{Dist, std::move(*V), pathJoin(Dir, (Name + ".whl").str())};
}

std::vector<WheelFile> wheelsIn(StringRef Dir, StringRef Machine) {
  std::vector<WheelFile> Out;
  std::error_code EC;
  for (sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC))
    if (std::optional<WheelFile> W =
            parseWheelName(Dir, sys::path::filename(It->path()), Machine))
      Out.push_back(std::move(*W));
  return Out;
}

bool startsWith(const Version &V, ArrayRef<uint64_t> Prefix) {
  ReleaseNumbers Numbers = V.release();
  ArrayRef<uint64_t> R = Numbers;
  return R.size() >= Prefix.size() && R.take_front(Prefix.size()) == Prefix;
}

/// The newest wheel of \p Dist whose version starts with \p Prefix.
const WheelFile *newest(const std::vector<WheelFile> &Wheels, StringRef Dist,
                        ArrayRef<uint64_t> Prefix) {
  const WheelFile *Best = nullptr;
  for (const WheelFile &W : Wheels)
    if (W.Dist == Dist && startsWith(W.Ver, Prefix) &&
        (!Best || Best->Ver < W.Ver))
      Best = &W;
  return Best;
}

/// The newest wheel of \p Dist whose version starts with \p Prefix's
/// release.
const WheelFile *newest(const std::vector<WheelFile> &Wheels, StringRef Dist,
                        const Version &Prefix) {
  ReleaseNumbers Numbers = Prefix.release();
  return newest(Wheels, Dist, ArrayRef<uint64_t>(Numbers));
}

std::string versionsOf(const std::vector<WheelFile> &Wheels, StringRef Dist) {
  std::vector<std::string> Vs;
  for (const WheelFile &W : Wheels)
    if (W.Dist == Dist)
      Vs.push_back(W.Ver.str());
  return Vs.empty() ? "none" : llvm::join(Vs, ", ");
}

/// What to say when CUDA \p Wanted cannot come from PyPI.
std::string noWheelsText(const KnowledgeBase &KB, const Version &Wanted) {
  std::string Text = "no CUDA " + Wanted.str() +
                     " toolkit can be assembled from NVIDIA's wheels on PyPI";
  if (const NoProvisionRow *No = KB.noProvision(Wanted.major()))
    Text += ": " + No->Reason;
  std::vector<std::string> Known;
  for (const ProvisionRow &Row : KB.provisions())
    Known.push_back(Row.Cuda.str());
  if (!Known.empty())
    Text += "; the builds that can be are " + llvm::join(Known, ", ");
  if (Wanted.major() < 13)
    Text += "; a CUDA " + std::to_string(Wanted.major()) +
            " toolkit can come from NVIDIA's runfile: `cudadeps toolkit "
            "install " + Wanted.str() + " --from cuda_" + Wanted.str() +
            "_..._linux.run`";
  return Text;
}

std::string tailOf(StringRef Text, unsigned Lines = 15) {
  SmallVector<StringRef, 0> All;
  Text.rtrim().split(All, '\n');
  size_t From = All.size() > Lines ? All.size() - Lines : 0;
  std::string Out;
  for (size_t I = From; I < All.size(); ++I)
    Out += "\n  " + All[I].take_front(400).str();
  return Out;
}

std::string readLog(StringRef Path) {
  Expected<std::string> Tail = readFileTail(Path, 64 << 10, "log");
  if (!Tail) {
    consumeError(Tail.takeError());
    return {};
  }
  return std::move(*Tail);
}

/// Removes a directory tree when it goes out of scope (unless kept).
class TempDir {
public:
  explicit TempDir(std::string Path) : Path(std::move(Path)) {}
  ~TempDir() {
    if (!Path.empty())
      (void)sys::fs::remove_directories(Path);
  }
  const std::string &path() const { return Path; }

private:
  std::string Path;
};

Expected<ProcessResult> runStep(ProcessRunner &Runner, ProcessRequest Req,
                                StringRef What) {
  Expected<ProcessResult> R = Runner.run(Req);
  if (!R)
    return failure("cannot run " + What + ": " + toString(R.takeError()));
  if (R->Interrupted)
    return makeInterrupted(What);
  if (R->TimedOut)
    return failure(What + " did not finish within " +
                   Twine(std::chrono::duration_cast<std::chrono::seconds>(
                             Req.Timeout)
                             .count()) +
                   "s");
  if (R->OutputExceeded)
    return failure(What + ": " + describeProblem(Req, *R));
  return std::move(*R);
}

std::string nowUtc() {
  std::time_t T = std::time(nullptr);
  std::tm Tm;
  gmtime_r(&T, &Tm);
  char Buf[32];
  std::strftime(Buf, sizeof(Buf), "%Y-%m-%dT%H:%M:%SZ", &Tm);
  return Buf;
}

/// The directory prefix of bin/nvcc in the nvcc wheel ("nvidia/cu13/").
Expected<std::string> layoutPrefix(const ChosenWheel &Nvcc) {
  Expected<std::vector<ArchiveMember>> Members = listArchive(Nvcc.Path);
  if (!Members)
    return Members.takeError();
  bool Ptxas = false;
  for (const ArchiveMember &M : *Members) {
    StringRef Name(M.Name);
    if (Name.endswith("bin/ptxas"))
      Ptxas = true;
    if (Name == "bin/nvcc")
      return std::string();
    if (Name.endswith("/bin/nvcc"))
      return Name.drop_back(StringRef("bin/nvcc").size()).str();
  }
  return failure(sys::path::filename(Nvcc.Path) + " holds no bin/nvcc" +
                 (Ptxas ? " (only ptxas: NVIDIA's CUDA 12 wheels for Linux "
                          "ship no nvcc)"
                        : ""));
}

const char *const TestKernel = R"(// cudadeps toolkit verification
#include <cuda_runtime.h>
#include <cuda/std/cstdint>
#include <cub/version.cuh>
#include <thrust/version.h>

__global__ void cudadeps_verify(cuda::std::int32_t *Out) {
  Out[threadIdx.x] = static_cast<cuda::std::int32_t>(threadIdx.x);
}

int main() {
  cuda::std::int32_t *P = nullptr;
  if (cudaMalloc(&P, sizeof(*P)) != cudaSuccess)
    return 1;
  cudadeps_verify<<<1, 1>>>(P);
  return cudaFree(P) == cudaSuccess ? 0 : 1;
}
)";

/// Runs the toolkit's nvcc: the expected version, then a test kernel
/// compiled and linked (against the shared runtime) for one arch.
Expected<std::string> verify(const InstallRequest &R, const InstallPlan &Plan,
                             StringRef Root, StringRef Work,
                             ProcessRunner &Runner, InstallObserver &Observer,
                             std::string &FullVersion) {
  std::string Nvcc = pathJoin(pathJoin(Root, "bin"), "nvcc");
  if (!sys::fs::can_execute(Nvcc))
    return failure("verification failed: " + Nvcc +
                   " is missing or not executable");
  Observer.onStep("verifying " + Nvcc + " --version");
  ProcessRequest Req;
  Req.Argv = {Nvcc, "--version"};
  Req.Timeout = R.VerifyTimeout;
  Expected<ProcessResult> V = runStep(Runner, Req, Nvcc + " --version");
  if (!V)
    return V.takeError();
  std::optional<std::string> Said = parseNvccVersionOutput(V->Out);
  if (V->ExitCode != 0 || !Said)
    return failure("verification failed: " + Nvcc + " --version " +
                   (V->ExitCode != 0
                        ? "exited with code " + Twine(V->ExitCode)
                        : Twine("printed no version")) +
                   tailOf(V->Out + V->Err, 5));
  Expected<Version> Got = Version::parse(*Said);
  Expected<Version> Want = Version::parse(Plan.Version);
  if (!Got || !Want) {
    consumeError(Got.takeError());
    consumeError(Want.takeError());
    return failure("verification failed: " + Nvcc + " --version says '" +
                   *Said + "'");
  }
  ReleaseNumbers Wanted = Want->release();
  bool Matches = Wanted.size() >= 3 ? *Got == *Want : startsWith(*Got, Wanted);
  if (!Matches)
    return failure("verification failed: " + Nvcc + " --version says " +
                   Got->str() + ", expected " + Plan.Version);
  FullVersion = Got->str();

  std::string Arch = "sm_75";
  Req.Argv = {Nvcc, "--list-gpu-code"};
  if (Expected<ProcessResult> L = runStep(Runner, Req, Nvcc + " --list-gpu-code");
      L && L->ExitCode == 0) {
    std::vector<std::string> Archs = parseNvccGpuCodeList(L->Out);
    if (!Archs.empty())
      Arch = Archs.front();
  } else if (!L) {
    Error E = L.takeError();
    if (E.isA<InterruptedError>())
      return E;
    consumeError(std::move(E));
  }
  std::string Src = pathJoin(Work, "kernel.cu");
  {
    std::error_code EC;
    raw_fd_ostream OS(Src, EC);
    if (EC)
      return failure("cannot write " + Src + ": " + EC.message());
    OS << TestKernel;
  }
  Observer.onStep("verifying: compiling a test kernel for " + Arch);
  Req.Argv = {Nvcc, "-arch=" + Arch, "--cudart", "shared", Src,
              "-o",  pathJoin(Work, "kernel")};
  Req.WorkingDir = Work.str();
  Expected<ProcessResult> C = runStep(Runner, Req, "nvcc (test kernel)");
  if (!C)
    return C.takeError();
  if (C->ExitCode != 0)
    return failure("verification failed: the test kernel does not compile "
                   "with " + Nvcc + " -arch=" + Arch + " (exit code " +
                   Twine(C->ExitCode) + "):" + tailOf(C->Err + C->Out));
  return Arch;
}

} // namespace

ArrayRef<StringRef> toolkitWheelComponents() { return Components; }

Expected<InstallPlan> planToolkitInstall(const InstallRequest &R,
                                         const KnowledgeBase &KB) {
  Expected<Version> Wanted = Version::parse(R.Version);
  if (!Wanted)
    return failure("invalid toolkit version '" + R.Version +
                   "': " + toString(Wanted.takeError()));
  if (Wanted->release().empty() || Wanted->isPrerelease() ||
      !Wanted->local().empty() || Wanted->epoch())
    return failure("invalid toolkit version '" + R.Version +
                   "': expected a CUDA version such as 13.0 or 13.0.88");
  InstallPlan Plan;
  const ProvisionRow *Row = KB.provision(*Wanted);

  if (!R.From.empty()) {
    if (sys::fs::is_regular_file(R.From)) {
      SmallString<256> Abs(R.From);
      (void)sys::fs::make_absolute(Abs);
      Plan.How = ToolkitOrigin::Kind::Runfile;
      Plan.Version = Wanted->str();
      Plan.From = std::string(Abs);
      return Plan;
    }
    if (!sys::fs::is_directory(R.From))
      return failure("--from " + R.From + ": no such file or directory");
    SmallString<256> Abs(R.From);
    (void)sys::fs::make_absolute(Abs);
    Plan.How = ToolkitOrigin::Kind::Wheels;
    Plan.From = std::string(Abs);
    std::vector<WheelFile> Found = wheelsIn(Plan.From, R.Machine);
    const WheelFile *Nvcc = Row ? newest(Found, "nvidia-cuda-nvcc", Row->Cuda)
                                : newest(Found, "nvidia-cuda-nvcc", *Wanted);
    if (Row && Nvcc && !(Nvcc->Ver == Row->Cuda))
      Nvcc = nullptr;
    if (!Nvcc)
      return failure(Plan.From + " has no nvidia-cuda-nvcc " +
                     (Row ? Row->Cuda.str() : Wanted->str()) + " wheel for " +
                     R.Machine + " (nvidia-cuda-nvcc wheels found: " +
                     versionsOf(Found, "nvidia-cuda-nvcc") + ")");
    Plan.Version = Nvcc->Ver.str();
    ReleaseNumbers NvccRelease = Nvcc->Ver.release();
    ArrayRef<uint64_t> Minor = ArrayRef<uint64_t>(NvccRelease).take_front(2);
    for (StringRef C : Components) {
      const WheelFile *W = nullptr;
      if (const Version *Pin = Row ? Row->component(C) : nullptr)
        W = newest(Found, C, *Pin);
      if (W && Row && !(W->Ver == *Row->component(C)))
        W = nullptr;
      if (!W && is_contained(SameVersion, C))
        W = newest(Found, C, Nvcc->Ver);
      if (!W && !is_contained(SameVersion, C))
        W = newest(Found, C, Minor);
      if (!W && C == "nvidia-cuda-cccl")
        W = newest(Found, C, Minor.take_front(1));
      if (!W)
        return failure(Plan.From + " has no " + C + " wheel for toolkit " +
                       Plan.Version + " (" + C + " wheels found: " +
                       versionsOf(Found, C) + ")");
      Plan.Wheels.push_back({C.str(), W->Ver, W->Path});
    }
  } else {
    if (!Row)
      return failure(noWheelsText(KB, *Wanted));
    Plan.How = ToolkitOrigin::Kind::Pypi;
    Plan.Version = Row->Cuda.str();
    for (StringRef C : Components)
      if (const Version *V = Row->component(C))
        Plan.Wheels.push_back({C.str(), *V, ""});
    for (const auto &[Name, V] : Row->Components)
      if (!is_contained(Components, StringRef(Name)))
        Plan.Wheels.push_back({Name, V, ""});
  }
  if (Row && Row->Cuda.str() == Plan.Version) {
    Plan.DownloadMiB = Row->DownloadMiB;
    Plan.InstalledMiB = Row->InstalledMiB;
    Plan.Source = Row->Source;
  }
  return Plan;
}

Error layOutCudaHome(StringRef Root) {
  std::string Lib = pathJoin(Root, "lib"), Lib64 = pathJoin(Root, "lib64");
  sys::fs::file_status St;
  bool HaveLib64 = !sys::fs::status(Lib64, St, /*Follow=*/false);
  if (!HaveLib64) {
    if (sys::fs::is_directory(Lib)) {
      if (std::error_code EC = sys::fs::rename(Lib, Lib64))
        return failure("cannot rename " + Lib + " to lib64: " + EC.message());
      if (std::error_code EC = sys::fs::create_link("lib64", Lib))
        return failure("cannot link " + Lib + " to lib64: " + EC.message());
    } else if (std::error_code EC = sys::fs::create_directories(Lib64)) {
      return failure("cannot create " + Lib64 + ": " + EC.message());
    }
  }
  // libfoo.so.13 -> libfoo.so, for -lfoo.
  std::error_code EC;
  std::vector<std::string> Names;
  for (sys::fs::directory_iterator It(Lib64, EC), End; It != End && !EC;
       It.increment(EC))
    Names.push_back(sys::path::filename(It->path()).str());
  for (const std::string &Name : Names) {
    size_t At = Name.find(".so.");
    if (At == std::string::npos || Name.compare(0, 3, "lib") != 0)
      continue;
    std::string Plain = Name.substr(0, At + 3);
    if (is_contained(Names, Plain))
      continue;
    std::string Link = pathJoin(Lib64, Plain);
    if (sys::fs::exists(Link))
      continue;
    if (std::error_code LEC = sys::fs::create_link(Name, Link))
      return failure("cannot create " + Link + ": " + LEC.message());
    Names.push_back(Plain);
  }
  return Error::success();
}

Expected<InstallResult> installToolkit(const InstallRequest &R,
                                       const InstallPlan &Plan,
                                       ProcessRunner &Runner,
                                       InstallObserver &Observer) {
  if (R.Store.empty())
    return failure("nowhere to install toolkits: set XDG_DATA_HOME or HOME");
  if (std::error_code EC = sys::fs::create_directories(R.Store))
    return failure("cannot create " + R.Store + ": " + EC.message());
  Expected<FileLock> Lock =
      FileLock::acquire(toolkitLockPath(R.Store, Plan.Version), [&] {
        Observer.onStep("waiting for another cudadeps installing toolkit " +
                        Plan.Version);
      });
  if (!Lock)
    return Lock.takeError();

  InstallResult Result;
  auto Installed = [&](StringRef Version) -> bool {
    std::string Root = pathJoin(R.Store, Version);
    if (!sys::fs::can_execute(pathJoin(pathJoin(Root, "bin"), "nvcc")))
      return false;
    Result.Root = Root;
    Result.AlreadyInstalled = true;
    if (std::optional<ToolkitOrigin> O = readToolkitOrigin(Root))
      Result.Origin = std::move(*O);
    Result.Origin.Version = Version.str();
    return true;
  };
  if (Installed(Plan.Version))
    return Result;

  // Leftovers of an interrupted install of this version (we hold its lock).
  std::error_code EC;
  std::string Stale = ".partial-" + Plan.Version + "-";
  for (sys::fs::directory_iterator It(R.Store, EC), End; It != End && !EC;
       It.increment(EC))
    if (sys::path::filename(It->path()).startswith(Stale))
      (void)sys::fs::remove_directories(It->path());

  SmallString<256> Model(R.Store), TmpPath;
  sys::path::append(Model, Stale + "%%%%%%");
  if (std::error_code CEC = sys::fs::createUniqueDirectory(Model, TmpPath))
    return failure("cannot create a temporary directory in " + R.Store + ": " +
                   CEC.message());
  TempDir Tmp{std::string(TmpPath)};
  std::string Root = pathJoin(Tmp.path(), "toolkit");
  std::string Work = pathJoin(Tmp.path(), "work");
  for (const std::string &D : {Root, Work})
    if (std::error_code DEC = sys::fs::create_directories(D))
      return failure("cannot create " + D + ": " + DEC.message());

  ToolkitOrigin Origin;
  Origin.How = Plan.How;
  Origin.From = Plan.How == ToolkitOrigin::Kind::Pypi ? "PyPI" : Plan.From;
  std::vector<ChosenWheel> Wheels = Plan.Wheels;

  if (Plan.How == ToolkitOrigin::Kind::Runfile) {
    Observer.onStep("running the runfile " + Plan.From +
                    " --silent --toolkit (this takes a few minutes)");
    std::string RunTmp = pathJoin(Tmp.path(), "runfile-tmp");
    (void)sys::fs::create_directories(RunTmp);
    ProcessRequest Req;
    Req.Argv = {"/bin/sh", Plan.From, "--silent", "--toolkit",
                "--toolkitpath=" + Root, "--tmpdir=" + RunTmp};
    Req.Timeout = R.InstallTimeout;
    Req.StdoutFile = Req.StderrFile = pathJoin(Tmp.path(), "runfile.log");
    Expected<ProcessResult> Run = runStep(Runner, Req, "the runfile");
    if (!Run)
      return Run.takeError();
    if (Run->ExitCode != 0)
      return failure("the runfile " + Plan.From + " failed (exit code " +
                     Twine(Run->ExitCode) + "):" +
                     tailOf(readLog(Req.StdoutFile)));
  } else {
    if (Plan.How == ToolkitOrigin::Kind::Pypi) {
      if (R.Python.empty())
        return failure("no Python to run pip with; give --python PATH, or "
                       "--from DIR with the wheels");
      std::string Dest = pathJoin(Tmp.path(), "wheels");
      std::string Size =
          Plan.DownloadMiB ? formatv(" (about {0} MiB)", *Plan.DownloadMiB).str()
                           : "";
      Observer.onStep(formatv("downloading {0} wheels{1} with {2} -m pip",
                              Wheels.size(), Size, R.Python)
                          .str());
      ProcessRequest Req;
      Req.Argv = {R.Python, "-m", "pip", "download", "--no-deps",
                  "--only-binary=:all:", "--disable-pip-version-check",
                  "--dest", Dest};
      for (const ChosenWheel &W : Wheels)
        Req.Argv.push_back(W.Component + "==" + W.Ver.str());
      Req.Timeout = R.InstallTimeout;
      Req.StdoutFile = Req.StderrFile = pathJoin(Tmp.path(), "pip.log");
      Expected<ProcessResult> Pip = runStep(Runner, Req, "pip download");
      if (!Pip)
        return Pip.takeError();
      if (Pip->ExitCode != 0)
        return failure("pip download failed (exit code " +
                       Twine(Pip->ExitCode) + "):" +
                       tailOf(readLog(Req.StdoutFile)));
      std::vector<WheelFile> Got = wheelsIn(Dest, R.Machine);
      for (ChosenWheel &W : Wheels) {
        auto It = find_if(Got, [&](const WheelFile &F) {
          return F.Dist == W.Component && F.Ver == W.Ver;
        });
        if (It == Got.end())
          return failure("pip download did not bring " + W.Component + " " +
                         W.Ver.str() + " for " + R.Machine);
        W.Path = It->Path;
      }
    }
    Expected<std::string> Prefix = layoutPrefix(Wheels.front());
    if (!Prefix)
      return Prefix.takeError();
    uint64_t Budget = R.MaxBytes;
    for (const ChosenWheel &W : Wheels) {
      if (interruptRequested())
        return makeInterrupted("installing toolkit " + Plan.Version);
      Observer.onStep("unpacking " + sys::path::filename(W.Path).str());
      Expected<ExtractStats> S = extractArchive(W.Path, *Prefix, Root, Budget);
      if (!S)
        return S.takeError();
      Budget -= std::min(Budget, S->Bytes);
      Origin.Components.emplace_back(W.Component, W.Ver.str());
    }
    if (Error E = layOutCudaHome(Root))
      return E;
  }

  std::string FullVersion;
  Expected<std::string> Arch =
      verify(R, Plan, Root, Work, Runner, Observer, FullVersion);
  if (!Arch)
    return Arch.takeError();
  Result.VerifiedArch = *Arch;
  if (Installed(FullVersion))
    return Result; // a runfile of a version installed in the meantime

  Origin.Version = FullVersion;
  Origin.InstalledAt = nowUtc();
  Origin.Bytes = treeSize(Root);
  {
    std::string OriginPath = pathJoin(Root, ToolkitOriginFile);
    std::error_code WEC;
    raw_fd_ostream OS(OriginPath, WEC);
    if (WEC)
      return failure("cannot write " + OriginPath + ": " + WEC.message());
    OS << Origin.toJson();
  }
  std::string Final = pathJoin(R.Store, FullVersion);
  if (interruptRequested())
    return makeInterrupted("installing toolkit " + FullVersion);
  if (std::error_code REC = sys::fs::rename(Root, Final)) {
    if (Installed(FullVersion))
      return Result;
    return failure("cannot move the toolkit into " + Final + ": " +
                   REC.message());
  }
  Result.Root = Final;
  Result.Origin = std::move(Origin);
  return Result;
}

} // namespace cudadeps
