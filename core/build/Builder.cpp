#include "core/build/Builder.h"

#include "core/build/Wheel.h"
#include "core/support/BoundedFile.h"
#include "core/support/Interrupt.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <chrono>
#include <fstream>
#include <thread>

using namespace llvm;

namespace cudadeps {

char BuildFailure::ID = 0;

void BuildFailure::log(raw_ostream &OS) const {
  OS << "building " << Package << " failed in step '" << Step << "'";
  if (ExitCode >= 0)
    OS << " (exit code " << ExitCode << ")";
  else if (!Problem.empty())
    OS << " (" << Problem << ")";
  if (!LogPath.empty())
    OS << "; log: " << LogPath;
}

std::error_code BuildFailure::convertToErrorCode() const {
  return inconvertibleErrorCode();
}

std::optional<std::pair<unsigned, unsigned>>
parseCompileProgress(StringRef Line) {
  Line = Line.ltrim();
  if (!Line.consume_front("["))
    return std::nullopt;
  size_t Close = Line.find(']');
  if (Close == StringRef::npos)
    return std::nullopt;
  StringRef In = Line.take_front(Close).trim();
  unsigned Done = 0, Total = 0;
  if (In.consume_back("%")) {
    if (In.trim().getAsInteger(10, Done) || Done > 100)
      return std::nullopt;
    return std::make_pair(Done, 0u);
  }
  auto [A, B] = In.split('/');
  if (B.empty() || A.getAsInteger(10, Done) || B.getAsInteger(10, Total) ||
      Total == 0 || Done > Total)
    return std::nullopt;
  return std::make_pair(Done, Total);
}

static std::string path(StringRef A, StringRef B) {
  SmallString<256> P(A);
  sys::path::append(P, B);
  return std::string(P);
}

static BuildPaths pathsFor(const Facts &F, const BuildOptions &Opts,
                           StringRef Src, StringRef Out, StringRef Work) {
  BuildPaths P;
  P.Src = Src.str();
  P.Out = Out.str();
  P.Work = Work.str();
  if (F.Python)
    P.Python = F.Python->Path;
  P.CMake = Opts.CMake;
  P.Ninja = Opts.Ninja;
  return P;
}

/// Variables that change how fast a build runs, not what it produces.
static bool affectsResult(StringRef Name) {
  return Name != "MAX_JOBS" && Name != "CMAKE_BUILD_PARALLEL_LEVEL" &&
         !Name.endswith("_COMPILER_LAUNCHER") && Name != "PYTORCH_NVCC";
}

Expected<CacheKey> buildKeyFor(const Package &Pkg,
                               const PackageResolution &PR, const Facts &F,
                               StringRef Commit, const BuildOptions &Opts) {
  // Placeholder paths and one job: the key is the same in every cache and
  // for every --jobs and launcher.
  BuildEnvironmentOptions EO = Opts.EnvOptions;
  EO.SrcDir = "{src}";
  EO.OutDir = "{out}";
  EO.Jobs = 1;
  EO.Launcher.clear();
  Expected<BuildEnvironment> BE = computeBuildEnvironment(Pkg, PR, F, EO);
  if (!BE)
    return BE.takeError();
  Expected<std::vector<BuildStep>> Steps =
      planBuildSteps(Pkg, PR, *BE, pathsFor(F, Opts, "{src}", "{out}", "{work}"));
  if (!Steps)
    return Steps.takeError();
  CacheKey K;
  K.add("cudadeps", CUDADEPS_VERSION);
  K.add("package", Pkg.canonicalName());
  K.add("version", PR.Ver ? PR.Ver->str() : "");
  K.add("commit", Commit);
  K.add("kind", buildKindName(Pkg.Kind));
  for (size_t I = 0; I < Steps->size(); ++I)
    K.add("step." + std::to_string(I), join((*Steps)[I].Argv, "\x1f"));
  if (PR.Nvcc)
    K.add("nvcc", PR.Nvcc->Path + " " + PR.Nvcc->Ver.str());
  if (PR.Compiler)
    K.add("compiler", PR.Compiler->Path + " " + PR.Compiler->Family + " " +
                          PR.Compiler->Ver.str());
  K.add("archs", join(PR.Archs, ";"));
  if (F.Torch)
    K.add("torch", F.Torch->Ver.str() + " cuda " +
                       (F.Torch->Cuda ? F.Torch->Cuda->str() : "none") +
                       " cxx11abi " +
                       (F.Torch->Cxx11Abi
                            ? (*F.Torch->Cxx11Abi ? "true" : "false")
                            : "unknown"));
  if (F.Python)
    K.add("python", F.Python->Path + " " + F.Python->Ver.str() + " " +
                        F.Python->tag());
  if (F.Platform)
    K.add("platform", F.Platform->tag());
  for (const BuildVar &V : BE->Vars)
    if (affectsResult(V.Name))
      K.add("env." + V.Name, (V.Prepend ? "+" : "") + V.Value);
  return K;
}

namespace {

/// How one step is run: its output (stdout and stderr) in \p StepLog.
ProcessRequest stepRequest(const BuildStep &S,
                           const std::map<std::string, std::string> &Env,
                           StringRef StepLog) {
  ProcessRequest R;
  R.Argv = S.Argv;
  R.Env = Env;
  R.WorkingDir = S.WorkingDir;
  R.Timeout = std::chrono::milliseconds(0); // builds take what they take
  R.StdoutFile = StepLog.str();
  R.StderrFile = StepLog.str();
  R.OutputCap = MaxStepLogBytes;
  return R;
}

/// Runs one step with its output in \p StepLog, reporting compile progress
/// from the output while it runs.
Expected<ProcessResult> runStep(const ProcessRequest &R, StringRef Package,
                                StringRef StepLog, const BuildOptions &Opts) {
  std::optional<Expected<ProcessResult>> Result;
  std::atomic<bool> Done{false};
  std::thread T([&] {
    Result.emplace(Opts.Runner->run(R));
    Done = true;
  });
  size_t Offset = 0;
  std::string Partial;
  // Reads what the step logged since the last call, a bounded chunk at a
  // time (the log may grow by megabytes between calls); true when there
  // may be more.
  constexpr size_t MaxChunk = 1u << 20;
  auto ReadChunk = [&]() -> bool {
    std::ifstream In(StepLog.str(), std::ios::binary);
    if (!In)
      return false;
    In.seekg(0, std::ios::end);
    std::streamoff Size = In.tellg();
    if (Size <= std::streamoff(Offset))
      return false;
    In.seekg(Offset);
    std::string Chunk(std::min<size_t>(size_t(Size) - Offset, MaxChunk), '\0');
    In.read(Chunk.data(), Chunk.size());
    Offset += In.gcount();
    Partial += Chunk.substr(0, In.gcount());
    size_t NL;
    while ((NL = Partial.find_first_of("\n\r")) != std::string::npos) {
      StringRef Line(Partial.data(), NL);
      if (auto P = parseCompileProgress(Line); P && Opts.Observer)
        Opts.Observer->onCompileProgress(Package, P->first, P->second, Line);
      Partial.erase(0, NL + 1);
    }
    if (Partial.size() > 65536) // one endless line: not a progress line
      Partial.clear();
    return In.gcount() > 0;
  };
  while (!Done) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    for (int I = 0; I < 4 && ReadChunk(); ++I) {
    }
  }
  T.join();
  while (ReadChunk()) {
  }
  return std::move(*Result);
}

/// Appends the step log \p From (at most the step's output cap) to \p To,
/// a chunk at a time.
Error appendFile(raw_ostream &To, StringRef From) {
  std::ifstream In(From.str(), std::ios::binary);
  if (!In)
    return Error::success(); // the step wrote nothing
  char Chunk[65536];
  while (In.read(Chunk, sizeof(Chunk)) || In.gcount() > 0)
    To.write(Chunk, static_cast<size_t>(In.gcount()));
  return Error::success();
}

std::vector<std::string> wheelsIn(StringRef Dir) {
  std::vector<std::string> Out;
  std::error_code EC;
  for (sys::fs::directory_iterator It(Dir, EC), End; !EC && It != End;
       It.increment(EC))
    if (StringRef(It->path()).endswith(".whl"))
      Out.push_back(It->path());
  llvm::sort(Out);
  return Out;
}

/// Copies a wheel into the shared wheels directory atomically.
Error publishWheel(StringRef Wheel, StringRef WheelsDir) {
  if (std::error_code EC = sys::fs::create_directories(WheelsDir))
    return createStringError(EC, "cannot create %s: %s",
                             WheelsDir.str().c_str(), EC.message().c_str());
  std::string Final = path(WheelsDir, sys::path::filename(Wheel));
  SmallString<256> Tmp;
  if (std::error_code EC = sys::fs::createUniqueFile(Final + ".tmp-%%%%%%",
                                                     Tmp))
    return createStringError(EC, "cannot write in %s: %s",
                             WheelsDir.str().c_str(), EC.message().c_str());
  if (std::error_code EC = sys::fs::copy_file(Wheel, Tmp)) {
    sys::fs::remove(Tmp);
    return createStringError(EC, "cannot copy %s: %s", Wheel.str().c_str(),
                             EC.message().c_str());
  }
  if (std::error_code EC = sys::fs::rename(Tmp, Final)) {
    sys::fs::remove(Tmp);
    return createStringError(EC, "cannot write %s: %s", Final.c_str(),
                             EC.message().c_str());
  }
  return Error::success();
}

} // namespace

Expected<BuildOutcome> buildPackage(const Package &Pkg,
                                    const PackageResolution &PR,
                                    const Facts &F, const FetchedSource &Src,
                                    const BuildOptions &Opts) {
  assert(Opts.Runner && "buildPackage needs a process runner");
  Expected<CacheKey> K = buildKeyFor(Pkg, PR, F, Src.Commit, Opts);
  if (!K)
    return K.takeError();
  BuildCache Cache(Opts.CacheDir);
  BuildOutcome O;
  O.Key = K->hash();
  std::string Name = Pkg.canonicalName();
  std::string Version = PR.Ver ? PR.Ver->str() : "";
  if (std::optional<CacheEntry> E = Cache.lookup(O.Key)) {
    O.Entry = std::move(*E);
    O.CacheHit = true;
    return O;
  }
  auto Lock = Cache.lock(O.Key, [&] {
    if (Opts.Observer)
      Opts.Observer->onBuildNote("waiting for another cudadeps building " +
                                 Name + " " + Version + " (same configuration)");
  });
  if (!Lock)
    return Lock.takeError();
  if (std::optional<CacheEntry> E = Cache.lookup(O.Key)) {
    O.Entry = std::move(*E);
    O.CacheHit = true;
    return O;
  }

  Expected<std::string> Tmp = Cache.makeTemp(O.Key);
  if (!Tmp)
    return Tmp.takeError();
  bool Committed = false;
  auto Cleanup = make_scope_exit([&] {
    if (!Committed)
      (void)sys::fs::remove_directories(*Tmp);
  });
  std::string OutDir = path(*Tmp, "out");

  BuildEnvironmentOptions EO = Opts.EnvOptions;
  EO.SrcDir = Src.Dir;
  EO.OutDir = OutDir;
  Expected<BuildEnvironment> BE = computeBuildEnvironment(Pkg, PR, F, EO);
  if (!BE)
    return BE.takeError();
  Expected<std::vector<BuildStep>> Steps =
      planBuildSteps(Pkg, PR, *BE, pathsFor(F, Opts, Src.Dir, OutDir, *Tmp));
  if (!Steps)
    return Steps.takeError();
  std::map<std::string, std::string> Env = BE->applyTo(Opts.BaseEnv);

  O.LogPath = Cache.logPath(Name, Version, O.Key);
  if (std::error_code EC =
          sys::fs::create_directories(sys::path::parent_path(O.LogPath)))
    return createStringError(EC, "cannot create the log directory: %s",
                             EC.message().c_str());
  std::error_code EC;
  raw_fd_ostream Log(O.LogPath, EC);
  if (EC)
    return createStringError(EC, "cannot write the log %s: %s",
                             O.LogPath.c_str(), EC.message().c_str());
  Log << "# cudadeps build of " << Name << " " << Version << " at "
      << Src.Commit << "\n# key " << O.Key << "\n# environment:\n";
  for (const BuildVar &V : BE->Vars)
    Log << "#   " << V.Name << "=" << V.Value << (V.Prepend ? ":..." : "")
        << "  (" << V.Origin << ")\n";

  std::string StepLog = path(*Tmp, "step.log");
  for (size_t I = 0; I < Steps->size(); ++I) {
    const BuildStep &S = (*Steps)[I];
    if (Opts.Observer)
      Opts.Observer->onStep(Name, S, I, Steps->size());
    Log << "\n# step " << S.Name << " in " << S.WorkingDir << "\n$ "
        << join(S.Argv, " ") << "\n";
    Log.flush();
    ProcessRequest Req = stepRequest(S, Env, StepLog);
    auto Started = std::chrono::steady_clock::now();
    Expected<ProcessResult> R = runStep(Req, Name, StepLog, Opts);
    std::chrono::duration<double> Took =
        std::chrono::steady_clock::now() - Started;
    if (Error E = appendFile(Log, StepLog))
      return E;
    Log.flush();
    if (interruptRequested() || (R && R->Interrupted)) {
      if (!R)
        consumeError(R.takeError());
      Log << "\n# interrupted\n";
      return makeInterrupted("building " + Name + " " + Version +
                             " (step " + S.Name + ")");
    }
    auto Fail = std::make_unique<BuildFailure>();
    Fail->Package = Name + " " + Version;
    Fail->Step = S.Name;
    Fail->Argv = S.Argv;
    Fail->LogPath = O.LogPath;
    if (!R) {
      Fail->Tail = toString(R.takeError());
      Log << "# " << Fail->Tail << "\n";
      return Error(std::move(Fail));
    }
    if (R->ExitCode != 0) {
      // The end of the log says what went wrong.
      Expected<std::string> Tail = readFileTail(StepLog, 1u << 20, "step log");
      std::string Text = Tail ? std::move(*Tail) : std::string();
      if (!Tail)
        consumeError(Tail.takeError());
      Fail->ExitCode = R->ExitCode;
      if (R->ExitCode < 0)
        Fail->Problem = describeProblem(Req, *R);
      Fail->Tail = lastLines(Text, 20);
      Fail->Cause = detectFailureCause(Text, BE->Jobs.Jobs);
      Log << "\n# step " << S.Name << " failed: " << describeProblem(Req, *R)
          << "\n";
      return Error(std::move(Fail));
    }
    Log << "\n# step " << S.Name << " done in "
        << format("%.1f", Took.count()) << " s\n";
  }
  Log.close();

  CacheEntry Entry;
  Entry.Key = O.Key;
  Entry.Package = Name;
  Entry.Version = Version;
  Entry.Commit = Src.Commit;
  if (Pkg.Kind == BuildKind::TorchExtension || Pkg.Kind == BuildKind::Python) {
    std::vector<std::string> Built = wheelsIn(OutDir);
    if (Built.empty()) {
      auto Fail = std::make_unique<BuildFailure>();
      Fail->Package = Name + " " + Version;
      Fail->Step = "wheel";
      Fail->LogPath = O.LogPath;
      Fail->Tail = "pip wheel succeeded but wrote no wheel into " + OutDir;
      return Error(std::move(Fail));
    }
    std::string Local = localTagFor(PR, F);
    std::string Python = F.Python ? F.Python->Path : "python3";
    for (const std::string &W : Built) {
      Expected<std::string> New =
          retagWheel(*Opts.Runner, Python, W, OutDir, Local);
      if (!New)
        return New.takeError();
      if (*New != W)
        sys::fs::remove(W);
      Entry.Wheels.push_back(*New);
    }
  }
  (void)sys::fs::remove_directories(path(*Tmp, "build"));
  sys::fs::remove(StepLog);
  if (std::error_code EC = sys::fs::copy_file(O.LogPath, path(*Tmp, "build.log")))
    return createStringError(EC, "cannot copy the log: %s",
                             EC.message().c_str());
  std::vector<std::string> Names;
  for (const std::string &W : Entry.Wheels)
    Names.push_back(sys::path::filename(W).str());
  if (Error E = Cache.commit(*Tmp, Entry, *K))
    return E;
  Committed = true;
  Entry.Wheels.clear();
  for (const std::string &N : Names) {
    Entry.Wheels.push_back(path(Entry.OutDir, N));
    if (Error E = publishWheel(Entry.Wheels.back(), Cache.wheelsDir()))
      return E;
  }
  O.Entry = std::move(Entry);
  return O;
}

} // namespace cudadeps
