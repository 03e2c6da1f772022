//===- IsolatedChild.cpp - run untrusted code in a forked child -----------===//

#include "core/support/IsolatedChild.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

namespace cudadeps {

bool writeAnswer(const char *Data, size_t Size) {
  while (Size > 0) {
    ssize_t N = ::write(IsolatedAnswerFd, Data, Size);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return false;
    Data += N;
    Size -= static_cast<size_t>(N);
  }
  return true;
}

static void closeOtherDescriptors() {
#ifdef SYS_close_range
  if (::syscall(SYS_close_range, IsolatedAnswerFd + 1, ~0U, 0) == 0)
    return;
#endif
  long Max = ::sysconf(_SC_OPEN_MAX);
  if (Max < 0 || Max > 65536)
    Max = 65536;
  for (int Fd = IsolatedAnswerFd + 1; Fd < Max; ++Fd)
    ::close(Fd);
}

[[noreturn]] static void childMain(int PipeFd, llvm::function_ref<int()> Child) {
  ::setpgid(0, 0);
  if (PipeFd != IsolatedAnswerFd) {
    ::dup2(PipeFd, IsolatedAnswerFd);
    ::close(PipeFd);
  }
  closeOtherDescriptors();
  int Null = ::open("/dev/null", O_RDWR);
  if (Null >= 0) {
    ::dup2(Null, 0);
    ::dup2(Null, 1);
    ::dup2(Null, 2);
    if (Null > 2)
      ::close(Null);
  }
  // Default dispositions: the parent's handlers (SIGINT cleanup) are not
  // the child's business.
  ::signal(SIGINT, SIG_DFL);
  ::signal(SIGTERM, SIG_DFL);
  ::signal(SIGPIPE, SIG_DFL);
  // A crash of the untrusted code ends the child by its signal, so the
  // parent can say which: no handler installed in this process (a
  // sanitizer's, a crash reporter's) turns it into an ordinary exit.
  for (int Sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT})
    ::signal(Sig, SIG_DFL);
  ::_exit(Child());
}

static void killGroup(pid_t Pid) {
  ::kill(-Pid, SIGKILL);
  ::kill(Pid, SIGKILL);
}

IsolatedOutcome runIsolated(llvm::function_ref<int()> Child,
                            const IsolatedOptions &Opts) {
  IsolatedOutcome Out;
  int Fds[2];
  if (::pipe2(Fds, O_CLOEXEC) != 0) {
    Out.Error = std::string("pipe: ") + std::strerror(errno);
    return Out;
  }
  pid_t Pid = ::fork();
  if (Pid < 0) {
    Out.Error = std::string("fork: ") + std::strerror(errno);
    ::close(Fds[0]);
    ::close(Fds[1]);
    return Out;
  }
  if (Pid == 0) {
    ::close(Fds[0]);
    childMain(Fds[1], Child);
  }
  // Both sides set the group, so it exists before the parent may kill it.
  ::setpgid(Pid, Pid);
  ::close(Fds[1]);

  using Clock = std::chrono::steady_clock;
  Clock::time_point Deadline = Clock::now() + Opts.Timeout;
  auto MsLeft = [&]() -> int {
    auto Left = std::chrono::duration_cast<std::chrono::milliseconds>(
        Deadline - Clock::now());
    return Left.count() > 0 ? static_cast<int>(Left.count()) : 0;
  };

  bool TimedOut = false, OverCap = false, Reaped = false;
  int Status = 0;
  // Reads what is there; false at EOF or when the cap is reached.
  auto ReadSome = [&]() -> bool {
    char Buffer[65536];
    ssize_t N = ::read(Fds[0], Buffer, sizeof(Buffer));
    if (N < 0)
      return errno == EINTR;
    if (N == 0)
      return false;
    if (Out.Output.size() + static_cast<size_t>(N) > Opts.OutputCap) {
      Out.Output.append(Buffer, Opts.OutputCap - Out.Output.size());
      OverCap = true;
      return false;
    }
    Out.Output.append(Buffer, static_cast<size_t>(N));
    return true;
  };
  // Until EOF, the cap, the deadline -- or the child's exit: something it
  // forked may hold the pipe open, and is not waited for. The exit is seen
  // on a pidfd when the kernel has them, else by looking every few ms.
  int PidFd = static_cast<int>(::syscall(SYS_pidfd_open, Pid, 0));
  bool Open = true;
  while (Open || !Reaped) {
    int Left = MsLeft();
    if (Left == 0) {
      TimedOut = true;
      break;
    }
    pollfd P[2];
    nfds_t N = 0;
    if (Open)
      P[N++] = {Fds[0], POLLIN, 0};
    nfds_t PidSlot = N;
    if (PidFd >= 0)
      P[N++] = {PidFd, POLLIN, 0};
    int Ready = ::poll(P, N, PidFd >= 0 ? Left : std::min(Left, 5));
    if (Ready < 0 && errno != EINTR)
      break;
    if (Open && Ready > 0 && P[0].revents != 0)
      Open = ReadSome();
    if (OverCap)
      break;
    bool Look = PidFd < 0 || (Ready > 0 && P[PidSlot].revents != 0);
    if (Look && ::waitpid(Pid, &Status, WNOHANG) == Pid) {
      Reaped = true;
      // Drain what it wrote before it exited, without waiting for more.
      ::fcntl(Fds[0], F_SETFL, ::fcntl(Fds[0], F_GETFL) | O_NONBLOCK);
      while (Open && ReadSome()) {
      }
      break;
    }
  }
  if (PidFd >= 0)
    ::close(PidFd);
  ::close(Fds[0]);

  // Whatever the child left behind in its group goes too.
  killGroup(Pid);
  if (!Reaped)
    while (::waitpid(Pid, &Status, 0) < 0 && errno == EINTR) {
    }

  if (OverCap)
    Out.What = IsolatedOutcome::Kind::OverCap;
  else if (TimedOut)
    Out.What = IsolatedOutcome::Kind::TimedOut;
  else if (Reaped && WIFSIGNALED(Status)) {
    Out.What = IsolatedOutcome::Kind::Signaled;
    Out.Signal = WTERMSIG(Status);
  } else if (Reaped && WIFEXITED(Status)) {
    Out.What = IsolatedOutcome::Kind::Exited;
    Out.ExitCode = WEXITSTATUS(Status);
  } else {
    Out.What = IsolatedOutcome::Kind::SpawnError;
    Out.Error = "the child could not be waited for";
  }
  return Out;
}

std::string IsolatedOutcome::describeFailure(const IsolatedOptions &Opts) const {
  switch (What) {
  case Kind::Exited:
    return ExitCode == 0 ? std::string()
                         : "exited with status " + std::to_string(ExitCode);
  case Kind::Signaled: {
    const char *Name = ::strsignal(Signal);
    return "crashed with signal " + std::to_string(Signal) +
           (Name ? std::string(" (") + Name + ")" : std::string());
  }
  case Kind::TimedOut: {
    long long Ms = Opts.Timeout.count();
    std::string Time = Ms % 1000 == 0 ? std::to_string(Ms / 1000) + "s"
                                      : std::to_string(Ms) + "ms";
    return "did not finish within " + Time + " and was killed";
  }
  case Kind::OverCap:
    return "wrote more than " + std::to_string(Opts.OutputCap) +
           " bytes and was killed";
  case Kind::SpawnError:
    return "could not be started: " + Error;
  }
  return "failed";
}

} // namespace cudadeps
