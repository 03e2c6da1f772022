//===- Process.cpp - running external commands ----------------------------===//
//
// The real runner starts the program with llvm::sys::ExecuteNoWait (argv, no
// shell) and waits for it with non-blocking llvm::sys::Wait calls. LLVM's own
// ExecuteAndWait timeout is built on alarm()/SIGALRM, which is process-wide
// and so cannot be used by probes that run concurrently on several threads;
// polling keeps each timeout private to its caller. stdout and stderr go to
// the requested files or to temporary files that are read back and removed.
//
// LLVM 14 cannot set a child's working directory, so a request with one is
// started with posix_spawn and posix_spawn_file_actions_addchdir_np.
//
//===----------------------------------------------------------------------===//

#include "core/support/Process.h"

#include "core/support/Interrupt.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Errc.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <spdlog/spdlog.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char **environ;

using namespace llvm;

namespace cudadeps {

namespace {

/// A temporary file that is removed when it goes out of scope.
struct TempFile {
  SmallString<128> Path;
  ~TempFile() {
    if (!Path.empty())
      sys::fs::remove(Path);
  }
};

/// Either the requested file or a fresh temporary one.
struct OutputTarget {
  std::string Path;
  TempFile Temp; // set when captured
  bool Captured = false;
};

} // namespace

static Error makeOutputTarget(StringRef Requested, StringRef Tag,
                              OutputTarget &T) {
  if (!Requested.empty()) {
    T.Path = Requested.str();
    return Error::success();
  }
  if (std::error_code EC =
          sys::fs::createTemporaryFile("cudadeps-" + Tag, "txt", T.Temp.Path))
    return createStringError(EC, "cannot create a temporary file for %s: %s",
                             Tag.str().c_str(), EC.message().c_str());
  T.Path = std::string(T.Temp.Path);
  T.Captured = true;
  return Error::success();
}

static std::string readCaptured(const OutputTarget &T) {
  if (!T.Captured)
    return {};
  auto Buffer = MemoryBuffer::getFile(T.Path, /*IsText=*/false,
                                      /*RequiresNullTerminator=*/false);
  return Buffer ? (*Buffer)->getBuffer().str() : std::string();
}

/// Resolves argv[0]: a name without '/' is searched on the PATH of the
/// child's environment (or ours when it inherits).
static Expected<std::string> resolveProgram(const ProcessRequest &R) {
  if (R.Argv.empty() || R.Argv[0].empty())
    return createStringError(errc::invalid_argument, "empty command line");
  StringRef Program = R.Argv[0];
  if (Program.contains('/')) {
    SmallString<256> Full(Program);
    if (!sys::path::is_absolute(Full) && !R.WorkingDir.empty()) {
      Full = R.WorkingDir;
      sys::path::append(Full, Program);
    }
    if (!sys::fs::can_execute(Full))
      return createStringError(errc::permission_denied,
                               "cannot execute '%s': %s",
                               Program.str().c_str(),
                               sys::fs::exists(Full) ? "not executable"
                                                     : "no such file");
    return std::string(Full);
  }
  std::string Path;
  if (R.Env) {
    auto It = R.Env->find("PATH");
    if (It != R.Env->end())
      Path = It->second;
  } else if (const char *P = std::getenv("PATH")) {
    Path = P;
  }
  std::string Found = findProgramInPath(Program, Path);
  if (Found.empty())
    return createStringError(errc::no_such_file_or_directory,
                             "program '%s' not found on PATH",
                             Program.str().c_str());
  return Found;
}

static std::vector<std::string> envStrings(const ProcessRequest &R) {
  std::vector<std::string> Out;
  for (const auto &[K, V] : *R.Env)
    Out.push_back(K + "=" + V);
  return Out;
}

/// Non-blocking wait on \p Pid; returns true with the exit code (or -2 for a
/// signal) once the child has exited.
static bool pollPid(pid_t Pid, int &ExitCode) {
  int Status = 0;
  pid_t W;
  do {
    W = waitpid(Pid, &Status, WNOHANG);
  } while (W < 0 && errno == EINTR);
  if (W == 0)
    return false;
  if (W < 0) { // already reaped or not ours
    ExitCode = -1;
    return true;
  }
  if (WIFEXITED(Status))
    ExitCode = WEXITSTATUS(Status);
  else
    ExitCode = -2;
  return true;
}

/// Waits for \p Pid up to \p Timeout, killing it when the time is up.
static void waitWithTimeout(pid_t Pid, std::chrono::milliseconds Timeout,
                            ProcessResult &Result) {
  auto Deadline = std::chrono::steady_clock::now() + Timeout;
  auto Pause = std::chrono::microseconds(200);
  while (true) {
    if (pollPid(Pid, Result.ExitCode))
      return;
    if (interruptRequested()) {
      // Give the child a moment to clean up after itself, then make sure.
      kill(Pid, SIGTERM);
      bool Reaped = false;
      for (int I = 0; I < 50 && !(Reaped = pollPid(Pid, Result.ExitCode));
           ++I)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      if (!Reaped && kill(Pid, SIGKILL) == 0) {
        int Status = 0;
        while (waitpid(Pid, &Status, 0) < 0 && errno == EINTR)
          ;
      }
      Result.Interrupted = true;
      Result.ExitCode = -1;
      return;
    }
    if (Timeout.count() > 0 && std::chrono::steady_clock::now() >= Deadline) {
      kill(Pid, SIGKILL);
      int Status = 0;
      while (waitpid(Pid, &Status, 0) < 0 && errno == EINTR)
        ;
      Result.TimedOut = true;
      Result.ExitCode = -1;
      return;
    }
    std::this_thread::sleep_for(Pause);
    Pause = std::min<std::chrono::microseconds>(Pause * 2,
                                                std::chrono::milliseconds(20));
  }
}

/// posix_spawn with a working directory (LLVM 14 has no such option).
static Expected<pid_t> spawnInDirectory(const std::string &Program,
                                        const ProcessRequest &R,
                                        const std::string &OutPath,
                                        const std::string &ErrPath) {
  posix_spawn_file_actions_t Actions;
  posix_spawn_file_actions_init(&Actions);
  auto Cleanup = make_scope_exit(
      [&] { posix_spawn_file_actions_destroy(&Actions); });
  posix_spawn_file_actions_addopen(&Actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&Actions, 1, OutPath.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0666);
  if (ErrPath == OutPath)
    posix_spawn_file_actions_adddup2(&Actions, 1, 2);
  else
    posix_spawn_file_actions_addopen(&Actions, 2, ErrPath.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0666);
  posix_spawn_file_actions_addchdir_np(&Actions, R.WorkingDir.c_str());

  std::vector<char *> Argv;
  for (const std::string &A : R.Argv)
    Argv.push_back(const_cast<char *>(A.c_str()));
  Argv.push_back(nullptr);
  std::vector<std::string> EnvStore;
  std::vector<char *> Envp;
  char **EnvArg = environ;
  if (R.Env) {
    EnvStore = envStrings(R);
    for (std::string &E : EnvStore)
      Envp.push_back(E.data());
    Envp.push_back(nullptr);
    EnvArg = Envp.data();
  }
  pid_t Pid = 0;
  int Rc = posix_spawn(&Pid, Program.c_str(), &Actions, nullptr, Argv.data(),
                       EnvArg);
  if (Rc != 0)
    return createStringError(std::error_code(Rc, std::generic_category()),
                             "cannot run '%s' in '%s': %s",
                             R.Argv[0].c_str(), R.WorkingDir.c_str(),
                             std::strerror(Rc));
  return Pid;
}

Expected<ProcessResult> RealProcessRunner::run(const ProcessRequest &R) {
  Expected<std::string> Program = resolveProgram(R);
  if (!Program)
    return Program.takeError();
  if (!R.WorkingDir.empty() && !sys::fs::is_directory(R.WorkingDir))
    return createStringError(errc::no_such_file_or_directory,
                             "working directory '%s' does not exist",
                             R.WorkingDir.c_str());

  OutputTarget Out, Err;
  if (Error E = makeOutputTarget(R.StdoutFile, "stdout", Out))
    return E;
  if (Error E = makeOutputTarget(R.StderrFile, "stderr", Err))
    return E;

  spdlog::debug("run: {}", join(R.Argv, " "));
  ProcessResult Result;
  pid_t Pid = 0;
  if (!R.WorkingDir.empty()) {
    Expected<pid_t> P = spawnInDirectory(*Program, R, Out.Path, Err.Path);
    if (!P)
      return P.takeError();
    Pid = *P;
  } else {
    std::vector<StringRef> Args(R.Argv.begin(), R.Argv.end());
    std::vector<std::string> EnvStore;
    std::vector<StringRef> EnvRefs;
    Optional<ArrayRef<StringRef>> EnvArg;
    if (R.Env) {
      EnvStore = envStrings(R);
      EnvRefs.assign(EnvStore.begin(), EnvStore.end());
      EnvArg = ArrayRef<StringRef>(EnvRefs);
    }
    Optional<StringRef> Redirects[] = {StringRef(""), StringRef(Out.Path),
                                       StringRef(Err.Path)};
    std::string ErrMsg;
    bool Failed = false;
    sys::ProcessInfo PI = sys::ExecuteNoWait(*Program, Args, EnvArg, Redirects,
                                             0, &ErrMsg, &Failed);
    if (Failed || PI.Pid == sys::ProcessInfo::InvalidPid)
      return createStringError(errc::io_error, "cannot run '%s': %s",
                               R.Argv[0].c_str(), ErrMsg.c_str());
    Pid = PI.Pid;
  }
  waitWithTimeout(Pid, R.Timeout, Result);
  Result.Out = readCaptured(Out);
  Result.Err = readCaptured(Err);
  if (Result.TimedOut)
    spdlog::debug("run: '{}' timed out after {} ms", R.Argv[0],
                  R.Timeout.count());
  return Result;
}

std::optional<std::string> RealEnvironment::get(StringRef Name) const {
  if (const char *V = std::getenv(Name.str().c_str()))
    return std::string(V);
  return std::nullopt;
}

std::map<std::string, std::string> RealEnvironment::all() const {
  std::map<std::string, std::string> Out;
  for (char **E = environ; E && *E; ++E) {
    auto [K, V] = StringRef(*E).split('=');
    Out.emplace(K.str(), V.str());
  }
  return Out;
}

std::optional<std::string> MapEnvironment::get(StringRef Name) const {
  auto It = Vars.find(Name.str());
  if (It == Vars.end())
    return std::nullopt;
  return It->second;
}

std::string findProgramInPath(StringRef Name, StringRef Path) {
  if (Name.empty())
    return {};
  SmallVector<StringRef, 16> Dirs;
  Path.split(Dirs, ':', -1, /*KeepEmpty=*/false);
  for (StringRef Dir : Dirs) {
    SmallString<256> Candidate(Dir);
    sys::path::append(Candidate, Name);
    if (sys::fs::is_regular_file(Candidate) && sys::fs::can_execute(Candidate))
      return std::string(Candidate);
  }
  return {};
}

} // namespace cudadeps
