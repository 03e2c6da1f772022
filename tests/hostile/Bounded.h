//===- Bounded.h - run hostile work in a child with time and memory caps --===//
//
// A hostile test must end in seconds and must not take the machine's memory
// with it, even when the code it tests is wrong: the work runs in a forked
// child with an alarm and (except under AddressSanitizer, which reserves
// terabytes of address space) an address-space limit.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_TESTS_HOSTILE_BOUNDED_H
#define CUDADEPS_TESTS_HOSTILE_BOUNDED_H

#include <csignal>
#include <cstdlib>
#include <functional>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define CUDADEPS_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CUDADEPS_TEST_ASAN 1
#endif
#endif

namespace cudadeps::test {

struct BoundedOutcome {
  bool Exited = false;
  int Code = -1;   // exit code when Exited
  int Signal = 0;  // the signal that ended it (SIGALRM: out of time)
  std::string describe() const {
    if (Exited)
      return "exited with " + std::to_string(Code);
    return "killed by signal " + std::to_string(Signal) +
           (Signal == SIGALRM ? " (out of time)" : "");
  }
};

/// Runs \p Work in a child limited to \p Seconds and \p MemoryMiB of address
/// space; the child exits with what \p Work returns.
inline BoundedOutcome runBounded(const std::function<int()> &Work,
                                 unsigned Seconds = 10,
                                 unsigned MemoryMiB = 2048) {
  BoundedOutcome O;
  pid_t Pid = fork();
  if (Pid == 0) {
#ifndef CUDADEPS_TEST_ASAN
    rlimit Limit{rlim_t(MemoryMiB) << 20, rlim_t(MemoryMiB) << 20};
    setrlimit(RLIMIT_AS, &Limit);
#else
    (void)MemoryMiB;
#endif
    alarm(Seconds);
    _exit(Work());
  }
  int Status = 0;
  if (Pid < 0 || waitpid(Pid, &Status, 0) != Pid)
    return O;
  if (WIFEXITED(Status)) {
    O.Exited = true;
    O.Code = WEXITSTATUS(Status);
  } else if (WIFSIGNALED(Status)) {
    O.Signal = WTERMSIG(Status);
  }
  return O;
}

} // namespace cudadeps::test

#endif
