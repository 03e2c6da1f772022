//===- Process.cpp - running external commands ----------------------------===//
//
// The real runner starts the program with posix_spawn (argv, no shell; a
// working directory through posix_spawn_file_actions_addchdir_np, which
// LLVM 14's ExecuteNoWait cannot set) as the leader of a new process group,
// with stdin on /dev/null and stdout/stderr on pipes. One loop polls the
// pipes and a pidfd of the child: output is read as it comes (kept in the
// result or written to the requested files, at most OutputCap bytes per
// stream), the exit is seen when it happens, and the deadline is a poll
// timeout private to the caller (LLVM's ExecuteAndWait timeout is built on
// alarm(), which is process-wide and cannot serve probes on several
// threads). A timeout or the cap kills the whole group with SIGKILL; an
// interrupt sends it SIGTERM and, a second later, SIGKILL.
//
// A normal exit leaves the group alone (a build may start a compiler cache
// server on purpose); what is still buffered in the pipes is read, and
// output that a left-over process writes later is not waited for.
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
#include "llvm/Support/Path.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

using namespace llvm;

namespace cudadeps {

/// How often a wait looks at interruptRequested() (the SIGINT handler may
/// run on another thread, so poll() is not woken by it).
static constexpr int InterruptCheckMs = 50;
/// How long an interrupted child has to clean up before SIGKILL.
static constexpr int InterruptGraceMs = 1000;

namespace {

/// A descriptor closed when it goes out of scope.
struct Fd {
  int Value = -1;
  Fd() = default;
  explicit Fd(int V) : Value(V) {}
  Fd(const Fd &) = delete;
  Fd &operator=(const Fd &) = delete;
  ~Fd() { reset(); }
  void reset(int V = -1) {
    if (Value >= 0)
      ::close(Value);
    Value = V;
  }
  explicit operator bool() const { return Value >= 0; }
};

/// One output stream of the child: the read end of its pipe and where what
/// is read goes (a string of the result, or a file).
struct Stream {
  Fd Read;
  std::string *Text = nullptr; // captured into, or
  int File = -1;               // written to
  size_t Taken = 0;
  bool Open = false;
};

} // namespace

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

static Error systemError(const Twine &What) {
  int E = errno;
  return createStringError(std::error_code(E, std::generic_category()),
                           "%s: %s", What.str().c_str(), std::strerror(E));
}

/// Opens a requested output file for the parent to write the child's
/// output into.
static Error openOutputFile(const std::string &Path, Fd &Out) {
  Out.reset(
      ::open(Path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666));
  if (!Out)
    return systemError("cannot open output file '" + Path + "'");
  return Error::success();
}

/// Starts the child: its own process group, default signal dispositions
/// and an empty mask, stdin on /dev/null, stdout on \p OutW, stderr on
/// \p ErrW.
static Expected<pid_t> spawnChild(const std::string &Program,
                                  const ProcessRequest &R, int OutW, int ErrW) {
  posix_spawn_file_actions_t Actions;
  posix_spawn_file_actions_init(&Actions);
  auto DestroyActions =
      make_scope_exit([&] { posix_spawn_file_actions_destroy(&Actions); });
  posix_spawn_file_actions_addopen(&Actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&Actions, OutW, 1);
  posix_spawn_file_actions_adddup2(&Actions, ErrW, 2);
  if (!R.WorkingDir.empty())
    posix_spawn_file_actions_addchdir_np(&Actions, R.WorkingDir.c_str());

  posix_spawnattr_t Attr;
  posix_spawnattr_init(&Attr);
  auto DestroyAttr = make_scope_exit([&] { posix_spawnattr_destroy(&Attr); });
  sigset_t Defaults, Empty;
  sigemptyset(&Defaults);
  for (int Sig : {SIGINT, SIGTERM, SIGQUIT, SIGHUP, SIGPIPE, SIGCHLD})
    sigaddset(&Defaults, Sig);
  sigemptyset(&Empty);
  posix_spawnattr_setsigdefault(&Attr, &Defaults);
  posix_spawnattr_setsigmask(&Attr, &Empty);
  posix_spawnattr_setpgroup(&Attr, 0);
  posix_spawnattr_setflags(&Attr, POSIX_SPAWN_SETPGROUP |
                                      POSIX_SPAWN_SETSIGDEF |
                                      POSIX_SPAWN_SETSIGMASK);

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
  int Rc =
      posix_spawn(&Pid, Program.c_str(), &Actions, &Attr, Argv.data(), EnvArg);
  if (Rc != 0) {
    std::string Where =
        R.WorkingDir.empty() ? std::string() : " in '" + R.WorkingDir + "'";
    return createStringError(std::error_code(Rc, std::generic_category()),
                             "cannot run '%s'%s: %s", R.Argv[0].c_str(),
                             Where.c_str(), std::strerror(Rc));
  }
  return Pid;
}

/// Hands \p Size bytes to the stream's destination, at most up to \p Cap in
/// all; false when the cap was passed.
static bool deliver(Stream &S, const char *Data, size_t Size, size_t Cap) {
  bool Over = S.Taken + Size > Cap;
  size_t Keep = Over ? Cap - S.Taken : Size;
  S.Taken += Keep;
  if (S.Text) {
    S.Text->append(Data, Keep);
  } else {
    while (Keep > 0) {
      ssize_t N = ::write(S.File, Data, Keep);
      if (N < 0 && errno == EINTR)
        continue;
      if (N <= 0)
        break; // a full disk: the output is lost, the child goes on
      Data += N;
      Keep -= static_cast<size_t>(N);
    }
  }
  return !Over;
}

/// Reads once from an open stream; false when its output passed the cap.
/// Closes the stream at EOF (or when nothing more can be read).
static bool readOnce(Stream &S, size_t Cap) {
  char Buffer[65536];
  ssize_t N = ::read(S.Read.Value, Buffer, sizeof(Buffer));
  if (N < 0 && (errno == EINTR || errno == EAGAIN))
    return true;
  if (N <= 0) {
    S.Open = false;
    S.Read.reset();
    return true;
  }
  return deliver(S, Buffer, static_cast<size_t>(N), Cap);
}

/// Reads what is buffered in an open stream now, without waiting for more;
/// false when its output passed the cap.
static bool drain(Stream &S, size_t Cap) {
  if (!S.Open)
    return true;
  ::fcntl(S.Read.Value, F_SETFL, ::fcntl(S.Read.Value, F_GETFL) | O_NONBLOCK);
  while (S.Open) {
    char Buffer[65536];
    ssize_t N = ::read(S.Read.Value, Buffer, sizeof(Buffer));
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      break;
    if (!deliver(S, Buffer, static_cast<size_t>(N), Cap))
      return false;
  }
  S.Open = false;
  S.Read.reset();
  return true;
}

/// Records how a reaped child ended.
static void recordStatus(int Status, ProcessResult &Result) {
  if (WIFEXITED(Status)) {
    Result.ExitCode = WEXITSTATUS(Status);
  } else {
    Result.ExitCode = -2;
    Result.Signal = WIFSIGNALED(Status) ? WTERMSIG(Status) : 0;
  }
}

/// Reaps \p Pid if it has exited; true then.
static bool tryReap(pid_t Pid, int &Status) {
  pid_t W;
  do {
    W = ::waitpid(Pid, &Status, WNOHANG);
  } while (W < 0 && errno == EINTR);
  if (W < 0) { // not ours any more: treat as gone
    Status = 0;
    return true;
  }
  return W == Pid;
}

static void reapBlocking(pid_t Pid, int &Status) {
  while (::waitpid(Pid, &Status, 0) < 0 && errno == EINTR) {
  }
}

/// Waits up to \p Ms for \p Pid to exit (on its pidfd when there is one).
static bool waitForExit(pid_t Pid, int PidFd, int Ms, int &Status) {
  auto Deadline =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(Ms);
  while (!tryReap(Pid, Status)) {
    auto Left = std::chrono::duration_cast<std::chrono::milliseconds>(
                    Deadline - std::chrono::steady_clock::now())
                    .count();
    if (Left <= 0)
      return false;
    if (PidFd >= 0) {
      pollfd P{PidFd, POLLIN, 0};
      ::poll(&P, 1, static_cast<int>(Left));
    } else {
      ::poll(nullptr, 0, static_cast<int>(std::min<long long>(Left, 5)));
    }
  }
  return true;
}

/// Sends \p Sig to the child's whole group (and to the child, should it
/// have left the group).
static void killGroup(pid_t Pid, int Sig) {
  ::kill(-Pid, Sig);
  ::kill(Pid, Sig);
}

Expected<ProcessResult> RealProcessRunner::run(const ProcessRequest &R) {
  Expected<std::string> Program = resolveProgram(R);
  if (!Program)
    return Program.takeError();
  if (!R.WorkingDir.empty() && !sys::fs::is_directory(R.WorkingDir))
    return createStringError(errc::no_such_file_or_directory,
                             "working directory '%s' does not exist",
                             R.WorkingDir.c_str());

  ProcessResult Result;
  // stdout always has a pipe; stderr shares it when both go to one file.
  bool SharedStream = !R.StdoutFile.empty() && R.StdoutFile == R.StderrFile;
  Stream Streams[2];
  Fd Files[2];
  Fd WriteEnds[2];
  size_t StreamCount = SharedStream ? 1 : 2;
  for (size_t I = 0; I < StreamCount; ++I) {
    int P[2];
    if (::pipe2(P, O_CLOEXEC) != 0)
      return systemError("cannot create a pipe for '" + R.Argv[0] + "'");
    Streams[I].Read.reset(P[0]);
    WriteEnds[I].reset(P[1]);
    Streams[I].Open = true;
    const std::string &File = I == 0 ? R.StdoutFile : R.StderrFile;
    if (File.empty()) {
      Streams[I].Text = I == 0 ? &Result.Out : &Result.Err;
    } else {
      if (Error E = openOutputFile(File, Files[I]))
        return E;
      Streams[I].File = Files[I].Value;
    }
  }

  spdlog::debug("run: {}", join(R.Argv, " "));
  Expected<pid_t> Spawned = spawnChild(*Program, R, WriteEnds[0].Value,
                                       WriteEnds[SharedStream ? 0 : 1].Value);
  WriteEnds[0].reset();
  WriteEnds[1].reset();
  if (!Spawned)
    return Spawned.takeError();
  pid_t Pid = *Spawned;
  Fd PidFd(static_cast<int>(::syscall(SYS_pidfd_open, Pid, 0)));

  using Clock = std::chrono::steady_clock;
  bool HasDeadline = R.Timeout.count() > 0;
  Clock::time_point Deadline = Clock::now() + R.Timeout;
  int Status = 0;
  bool Exited = false;
  while (true) {
    if (interruptRequested()) {
      killGroup(Pid, SIGTERM);
      if (!waitForExit(Pid, PidFd.Value, InterruptGraceMs, Status)) {
        killGroup(Pid, SIGKILL);
        reapBlocking(Pid, Status);
      }
      ::kill(-Pid, SIGKILL); // what it left in its group
      Result.Interrupted = true;
      Result.ExitCode = -1;
      break;
    }
    int WaitMs = InterruptCheckMs;
    if (HasDeadline) {
      auto Left = std::chrono::duration_cast<std::chrono::milliseconds>(
                      Deadline - Clock::now())
                      .count();
      if (Left <= 0) {
        Result.TimedOut = true;
        break;
      }
      WaitMs = static_cast<int>(std::min<long long>(Left, WaitMs));
    }
    pollfd Fds[3];
    Stream *Polled[2] = {nullptr, nullptr};
    nfds_t N = 0;
    for (size_t I = 0; I < StreamCount; ++I)
      if (Streams[I].Open) {
        Polled[N] = &Streams[I];
        Fds[N++] = {Streams[I].Read.Value, POLLIN, 0};
      }
    nfds_t PidSlot = N;
    if (PidFd)
      Fds[N++] = {PidFd.Value, POLLIN, 0};
    else
      WaitMs = std::min(WaitMs, 5); // no pidfd: look at the child often
    int Ready = ::poll(Fds, N, WaitMs);
    if (Ready < 0 && errno != EINTR) {
      Error E = systemError("cannot wait for '" + R.Argv[0] + "'");
      killGroup(Pid, SIGKILL);
      reapBlocking(Pid, Status);
      return E;
    }
    bool Over = false;
    for (nfds_t I = 0; I < PidSlot && Ready > 0; ++I)
      if (Fds[I].revents != 0 && !readOnce(*Polled[I], R.OutputCap))
        Over = true;
    if (Over) {
      Result.OutputExceeded = true;
      break;
    }
    bool PidReady = PidFd ? (Ready > 0 && Fds[PidSlot].revents != 0) : true;
    bool AllClosed = none_of(Streams, [](const Stream &S) { return S.Open; });
    // Without a pidfd, a closed pipe is the sign to look; with one, its
    // readiness is.
    if ((PidReady || (AllClosed && !PidFd)) && tryReap(Pid, Status)) {
      Exited = true;
      break;
    }
  }

  if (Exited) {
    recordStatus(Status, Result);
    for (size_t I = 0; I < StreamCount; ++I)
      if (!drain(Streams[I], R.OutputCap))
        Result.OutputExceeded = true;
  } else if (Result.TimedOut || Result.OutputExceeded) {
    killGroup(Pid, SIGKILL);
    reapBlocking(Pid, Status);
    Result.ExitCode = -1;
  }
  if (Result.TimedOut)
    spdlog::debug("run: '{}' timed out after {} ms", R.Argv[0],
                  R.Timeout.count());
  if (Result.OutputExceeded)
    spdlog::debug("run: '{}' wrote more than {} bytes", R.Argv[0], R.OutputCap);
  return Result;
}

std::string describeProblem(const ProcessRequest &Req, const ProcessResult &R) {
  if (R.Interrupted)
    return "was interrupted";
  if (R.TimedOut) {
    long long Ms = Req.Timeout.count();
    std::string Time = Ms % 1000 == 0 ? std::to_string(Ms / 1000) + "s"
                                      : std::to_string(Ms) + "ms";
    return "timed out after " + Time;
  }
  if (R.OutputExceeded)
    return "output exceeded " + std::to_string(Req.OutputCap) +
           " bytes (stopped)";
  if (R.ExitCode == -2) {
    const char *Name = R.Signal ? ::strsignal(R.Signal) : nullptr;
    return "was killed by signal " + std::to_string(R.Signal) +
           (Name ? std::string(" (") + Name + ")" : std::string());
  }
  if (R.ExitCode != 0)
    return "exited with code " + std::to_string(R.ExitCode);
  return {};
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
