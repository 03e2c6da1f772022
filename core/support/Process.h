//===- Process.h - running external commands, behind an interface ----------===//
//
// Probes and builds reach processes only through ProcessRunner so that tests
// can substitute a fake. The real runner executes argv directly (never a
// shell), with an environment, a working directory and a timeout: a hanging
// nvcc or nvidia-smi costs at most the timeout.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_SUPPORT_PROCESS_H
#define CUDADEPS_CORE_SUPPORT_PROCESS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cudadeps {

struct ProcessRequest {
  std::vector<std::string> Argv; // Argv[0] is the program (path or name on PATH)
  /// The full environment of the child; nullopt = inherit the parent's.
  std::optional<std::map<std::string, std::string>> Env;
  std::string WorkingDir; // empty = current
  std::chrono::milliseconds Timeout{10000};
  /// Where stdout/stderr go; empty = captured into ProcessResult.
  std::string StdoutFile;
  std::string StderrFile;
};

struct ProcessResult {
  int ExitCode = -1;
  bool TimedOut = false;
  /// Stopped because an interrupt was requested (core/support/Interrupt.h).
  bool Interrupted = false;
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

/// Executes real processes (llvm::sys::ExecuteAndWait, no shell).
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
