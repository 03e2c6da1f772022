//===- LibcudaQuery.h - ask the user-mode driver, in a child process ------===//
//
// Loads libcuda.so.1 and calls cuInit(0), cuDriverGetVersion, cuDeviceGetCount,
// cuDeviceGet, cuDeviceGetName and cuDeviceGetAttribute(75/76) -- in a forked
// child, never in the calling process:
//  - libcuda can hang (a wedged GPU, a driver being upgraded): the parent
//    waits at most the timeout, then SIGKILLs the child;
//  - cuInit creates driver state and threads and preloads JIT libraries,
//    which should not end up in cudadeps (conda and cuDF isolate it too);
//  - the child unsets CUDA_VISIBLE_DEVICES first (an empty or bad value makes
//    cuInit fail with "no device"), without touching the parent.
//
// The child runs through core/support/IsolatedChild.h (own process group,
// killed with everything it forked when the parent is done, output capped).
// Why fork() and not a re-executed helper: the probe lives in a library that
// does not know the executable, and fork+pipe needs no cooperation from main.
// The caveat of fork() in a multi-threaded process (a lock held by another
// thread at fork time stays locked in the child) is bounded here: glibc
// re-initialises malloc's locks in the child, the child calls nothing but
// dlopen/dlsym, the driver functions, snprintf/write and _exit, and a
// deadlocked child is killed at the timeout like a hanging one. Descriptors
// other than the report pipe are closed in the child so that a slow child
// cannot hold other commands' pipes open.
//
// The child reports on the pipe in a line protocol (parseLibcudaReport).
// Only the soname libcuda.so.1 (and the distributions' absolute paths of it)
// is loaded, never a bare libcuda.so, which may be the toolkit's stub.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_PLUGINS_DRIVER_LIBCUDAQUERY_H
#define CUDADEPS_PLUGINS_DRIVER_LIBCUDAQUERY_H

#include "llvm/ADT/StringRef.h"

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace cudadeps::driver {

struct LibcudaGpu {
  int Ordinal = 0;
  std::string Name;
  int Major = 0;
  int Minor = 0;
};

struct LibcudaReport {
  std::string Library;   // the file that was loaded (from dladdr)
  std::string LoadError; // why no candidate could be loaded
  std::string MissingSymbol;
  std::optional<int> InitResult;    // cuInit's CUresult
  std::optional<int> DriverVersion; // 12080
  std::optional<int> DeviceCount;
  std::vector<LibcudaGpu> Gpus;
  std::vector<std::string> DeviceErrors; // "device 1: cuDeviceGetName returned 101"
  bool Complete = false;                 // the child reached its last line
};

/// Parses the child's report: lines "library PATH", "load-error TEXT",
/// "missing-symbol NAME", "init CODE", "driver-version N", "device-count N",
/// "gpu ORDINAL MAJOR MINOR NAME", "device-error TEXT", "end".
LibcudaReport parseLibcudaReport(llvm::StringRef Text);

/// At most this many devices are asked about.
inline constexpr int MaxDevices = 256;
/// The child's report is cut at this size (and the child killed).
inline constexpr size_t MaxReportBytes = 256u << 10;

struct LibcudaOutcome {
  LibcudaReport Report;
  bool TimedOut = false;
  bool OverCap = false;    // the report was larger than MaxReportBytes
  int Signal = 0;          // the child died of this signal (not our kill)
  std::string SpawnError;  // fork/pipe failed
};

/// Runs the query in a child process. \p Libraries are tried in order with
/// dlopen (the first that loads is used).
LibcudaOutcome queryLibcuda(const std::vector<std::string> &Libraries,
                            std::chrono::milliseconds Timeout);

/// "CUDA_ERROR_NO_DEVICE" for 100, ... ; "" when unknown.
llvm::StringRef cudaErrorName(int Code);

} // namespace cudadeps::driver

#endif
