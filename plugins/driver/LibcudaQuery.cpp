//===- LibcudaQuery.cpp - ask the user-mode driver, in a child process ----===//

#include "plugins/driver/LibcudaQuery.h"

#include "core/support/IsolatedChild.h"

#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <dlfcn.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

namespace cudadeps::driver {

llvm::StringRef cudaErrorName(int Code) {
  switch (Code) {
  case 0: return "CUDA_SUCCESS";
  case 1: return "CUDA_ERROR_INVALID_VALUE";
  case 2: return "CUDA_ERROR_OUT_OF_MEMORY";
  case 3: return "CUDA_ERROR_NOT_INITIALIZED";
  case 4: return "CUDA_ERROR_DEINITIALIZED";
  case 34: return "CUDA_ERROR_STUB_LIBRARY";
  case 35: return "CUDA_ERROR_INSUFFICIENT_DRIVER";
  case 46: return "CUDA_ERROR_DEVICE_UNAVAILABLE";
  case 100: return "CUDA_ERROR_NO_DEVICE";
  case 101: return "CUDA_ERROR_INVALID_DEVICE";
  case 803: return "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH";
  case 804: return "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE";
  case 999: return "CUDA_ERROR_UNKNOWN";
  default: return "";
  }
}

LibcudaReport parseLibcudaReport(llvm::StringRef Text) {
  LibcudaReport R;
  llvm::SmallVector<llvm::StringRef, 16> Lines;
  Text.split(Lines, '\n', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef Line : Lines) {
    auto [Key, Rest] = Line.split(' ');
    int N = 0;
    if (Key == "library") {
      R.Library = Rest.str();
    } else if (Key == "load-error") {
      R.LoadError = Rest.str();
    } else if (Key == "missing-symbol") {
      R.MissingSymbol = Rest.str();
    } else if (Key == "init" && !Rest.trim().getAsInteger(10, N)) {
      R.InitResult = N;
    } else if (Key == "driver-version" && !Rest.trim().getAsInteger(10, N)) {
      R.DriverVersion = N;
    } else if (Key == "device-count" && !Rest.trim().getAsInteger(10, N)) {
      R.DeviceCount = N;
    } else if (Key == "gpu") {
      LibcudaGpu G;
      auto [Ordinal, R1] = Rest.split(' ');
      auto [Major, R2] = R1.split(' ');
      auto [Minor, Name] = R2.split(' ');
      if (Ordinal.getAsInteger(10, G.Ordinal) || Major.getAsInteger(10, G.Major) ||
          Minor.getAsInteger(10, G.Minor))
        continue;
      G.Name = Name.trim().str();
      R.Gpus.push_back(std::move(G));
    } else if (Key == "device-error") {
      R.DeviceErrors.push_back(Rest.str());
    } else if (Key == "end") {
      R.Complete = true;
    }
  }
  return R;
}

// --- the child -------------------------------------------------------------

namespace {

using CuInitFn = int (*)(unsigned);
using CuIntOutFn = int (*)(int *);
using CuDeviceGetFn = int (*)(int *, int);
using CuDeviceGetNameFn = int (*)(char *, int, int);
using CuDeviceGetAttributeFn = int (*)(int *, int, int);

constexpr int ComputeCapabilityMajor = 75; // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR
constexpr int ComputeCapabilityMinor = 76; // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR

} // namespace

static void writeAll(const char *Data, size_t Size) {
  writeAnswer(Data, Size);
}

__attribute__((format(printf, 1, 2))) static void report(const char *Format,
                                                        ...) {
  char Line[512];
  va_list Args;
  va_start(Args, Format);
  int N = vsnprintf(Line, sizeof(Line) - 1, Format, Args);
  va_end(Args);
  if (N < 0)
    return;
  size_t Size = std::min(static_cast<size_t>(N), sizeof(Line) - 2);
  // One line per record: no newline may leak from a name or an error text.
  for (size_t I = 0; I < Size; ++I)
    if (Line[I] == '\n' || Line[I] == '\r')
      Line[I] = ' ';
  Line[Size] = '\n';
  writeAll(Line, Size + 1);
}

static int childMain(const char *const *Libraries) {
  ::unsetenv("CUDA_VISIBLE_DEVICES");

  void *Handle = nullptr;
  // The soname's error is the telling one; the fallbacks' only add noise.
  // dlerror's text does not survive the next dlopen: copy it.
  char FirstError[256] = "no library to load";
  for (const char *const *Lib = Libraries; *Lib && !Handle; ++Lib) {
    Handle = ::dlopen(*Lib, RTLD_NOW | RTLD_LOCAL);
    const char *Err = Handle ? nullptr : ::dlerror();
    if (Lib == Libraries)
      snprintf(FirstError, sizeof(FirstError), "%s", Err ? Err : "dlopen failed");
  }
  if (!Handle) {
    report("load-error %s", FirstError);
    report("end");
    return 0;
  }

  auto CuInit = reinterpret_cast<CuInitFn>(::dlsym(Handle, "cuInit"));
  if (CuInit) {
    Dl_info Info;
    if (::dladdr(reinterpret_cast<void *>(CuInit), &Info) && Info.dli_fname)
      report("library %s", Info.dli_fname);
  }
  auto DriverGetVersion =
      reinterpret_cast<CuIntOutFn>(::dlsym(Handle, "cuDriverGetVersion"));
  auto DeviceGetCount =
      reinterpret_cast<CuIntOutFn>(::dlsym(Handle, "cuDeviceGetCount"));
  auto DeviceGet = reinterpret_cast<CuDeviceGetFn>(::dlsym(Handle, "cuDeviceGet"));
  auto DeviceGetName =
      reinterpret_cast<CuDeviceGetNameFn>(::dlsym(Handle, "cuDeviceGetName"));
  auto DeviceGetAttribute = reinterpret_cast<CuDeviceGetAttributeFn>(
      ::dlsym(Handle, "cuDeviceGetAttribute"));
  if (!CuInit || !DriverGetVersion) {
    report("missing-symbol %s", CuInit ? "cuDriverGetVersion" : "cuInit");
    report("end");
    return 0;
  }

  int Init = CuInit(0);
  report("init %d", Init);
  int DriverVersion = 0;
  if (DriverGetVersion(&DriverVersion) == 0)
    report("driver-version %d", DriverVersion);
  if (Init == 0 && DeviceGetCount && DeviceGet && DeviceGetName &&
      DeviceGetAttribute) {
    int Count = 0;
    int R = DeviceGetCount(&Count);
    if (R != 0)
      report("device-error cuDeviceGetCount returned %d", R);
    else
      report("device-count %d", Count);
    // A libcuda that claims INT_MAX devices gets the first MaxDevices.
    for (int I = 0; R == 0 && I < Count && I < MaxDevices; ++I) {
      int Device = 0, Major = 0, Minor = 0;
      char Name[256] = {0};
      if ((R = DeviceGet(&Device, I)) != 0) {
        report("device-error device %d: cuDeviceGet returned %d", I, R);
        R = 0;
        continue;
      }
      int RName = DeviceGetName(Name, sizeof(Name) - 1, Device);
      int RMajor = DeviceGetAttribute(&Major, ComputeCapabilityMajor, Device);
      int RMinor = DeviceGetAttribute(&Minor, ComputeCapabilityMinor, Device);
      if (RName || RMajor || RMinor)
        report("device-error device %d: cuDeviceGetName/Attribute returned "
               "%d/%d/%d",
               I, RName, RMajor, RMinor);
      else
        report("gpu %d %d %d %s", I, Major, Minor, Name);
    }
  }
  report("end");
  return 0;
}

// --- the parent ------------------------------------------------------------

LibcudaOutcome queryLibcuda(const std::vector<std::string> &Libraries,
                            std::chrono::milliseconds Timeout) {
  LibcudaOutcome Outcome;
  // Everything the child needs is prepared before fork().
  std::vector<const char *> Names;
  for (const std::string &L : Libraries)
    Names.push_back(L.c_str());
  Names.push_back(nullptr);

  IsolatedOptions Opts;
  Opts.Timeout = Timeout;
  Opts.OutputCap = MaxReportBytes;
  IsolatedOutcome O = runIsolated([&] { return childMain(Names.data()); }, Opts);
  std::string Text = std::move(O.Output);
  switch (O.What) {
  case IsolatedOutcome::Kind::SpawnError:
    Outcome.SpawnError = O.Error;
    return Outcome;
  case IsolatedOutcome::Kind::TimedOut:
    Outcome.TimedOut = true;
    break;
  case IsolatedOutcome::Kind::Signaled:
    Outcome.Signal = O.Signal;
    break;
  case IsolatedOutcome::Kind::OverCap:
    Outcome.OverCap = true;
    break;
  case IsolatedOutcome::Kind::Exited:
    break;
  }
  Outcome.Report = parseLibcudaReport(Text);
  return Outcome;
}

} // namespace cudadeps::driver
