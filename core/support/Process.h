//===- Process.h - running external commands, behind an interface
//----------===//
//
// Probes and builds reach processes only through ProcessRunner so that tests
// can substitute a fake. The real runner executes argv directly (never a
// shell), with an environment, a working directory, a timeout and a cap on
// what it keeps of the output: a hanging nvcc or nvidia-smi costs at most
// the timeout, and one that prints without end at most the cap.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_SUPPORT_PROCESS_H
#define CUDADEPS_CORE_SUPPORT_PROCESS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <chrono>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cudadeps {

/// What a child may write to each of stdout and stderr unless the request
/// says otherwise (a tool's answer is a few kilobytes).
inline constexpr size_t DefaultOutputCap = 16u << 20;

struct ProcessRequest {
  std::vector<std::string> Argv; // Argv[0] is the program (path or name on PATH)
  /// The full environment of the child; nullopt = inherit the parent's.
  std::optional<std::map<std::string, std::string>> Env;
  std::string WorkingDir; // empty = current
  std::chrono::milliseconds Timeout{10000};
  /// Where stdout/stderr go; empty = captured into ProcessResult.
  std::string StdoutFile;
  std::string StderrFile;
  /// The most bytes read from stdout, and from stderr (one stream when both
  /// go to one file); a child that writes more is killed, with its whole
  /// process group, and OutputExceeded is set.
  size_t OutputCap = DefaultOutputCap;
};

struct ProcessResult {
  int ExitCode = -1;
  bool TimedOut = false;
  /// Stopped because an interrupt was requested (core/support/Interrupt.h).
  bool Interrupted = false;
  /// Killed because it wrote more than the request's OutputCap.
  bool OutputExceeded = false;
  /// The signal that ended it when it was not killed by the runner
  /// (ExitCode is then -2).
  int Signal = 0;
  std::string Out; // captured stdout (if not sent to a file)
  std::string Err; // captured stderr (if not sent to a file)
};

class ProcessRunner {
public:
  virtual ~ProcessRunner() = default;
  /// Runs the request. An Error means it could not be started (program not
  /// found, not executable); a non-zero exit or a timeout is a result.
  virtual llvm::Expected<ProcessResult> run(const ProcessRequest &R) = 0;
};

/// Why \p R did not end well, for a message that names the tool first:
/// "timed out after 10s", "output exceeded 16777216 bytes",
/// "was killed by signal 11 (Segmentation fault)", "exited with code 3";
/// "" for an exit with code 0.
std::string describeProblem(const ProcessRequest &Req, const ProcessResult &R);

/// Executes real processes (posix_spawn, no shell). Each child leads a
/// process group of its own: a timeout, an interrupt or the output cap ends
/// the whole group, so what the tool started does not outlive it. The
/// output is read through pipes while the child runs (into the result or
/// into the requested files), never more than the cap; the child's exit is
/// noticed at once (a pidfd), not by polling.
class RealProcessRunner : public ProcessRunner {
public:
  llvm::Expected<ProcessResult> run(const ProcessRequest &R) override;
};

/// Environment variables, behind an interface for the same reason.
class Environment {
public:
  virtual ~Environment() = default;
  virtual std::optional<std::string> get(llvm::StringRef Name) const = 0;
  /// Every variable (used to pass a modified environment to children).
  virtual std::map<std::string, std::string> all() const = 0;
};

class RealEnvironment : public Environment {
public:
  std::optional<std::string> get(llvm::StringRef Name) const override;
  std::map<std::string, std::string> all() const override;
};

/// A fixed environment for tests.
class MapEnvironment : public Environment {
public:
  explicit MapEnvironment(std::map<std::string, std::string> Vars = {})
      : Vars(std::move(Vars)) {}
  std::optional<std::string> get(llvm::StringRef Name) const override;
  std::map<std::string, std::string> all() const override { return Vars; }
  void set(llvm::StringRef Name, llvm::StringRef Value) {
    Vars[Name.str()] = Value.str();
  }

private:
  std::map<std::string, std::string> Vars;
};

/// Looks Name up in the colon-separated Path list; "" when not found.
std::string findProgramInPath(llvm::StringRef Name, llvm::StringRef Path);

} // namespace cudadeps

#endif
