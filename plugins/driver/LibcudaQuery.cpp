//===- LibcudaQuery.cpp - ask the user-mode driver, in a child process ----===//

#include "plugins/driver/LibcudaQuery.h"

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
constexpr int ReportFd = 3;

} // namespace

static void writeAll(const char *Data, size_t Size) {
  while (Size > 0) {
    ssize_t N = ::write(ReportFd, Data, Size);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return;
    Data += N;
    Size -= static_cast<size_t>(N);
  }
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

static void closeOtherDescriptors() {
#ifdef SYS_close_range
  if (::syscall(SYS_close_range, ReportFd + 1, ~0U, 0) == 0)
    return;
#endif
  long Max = ::sysconf(_SC_OPEN_MAX);
  if (Max < 0 || Max > 65536)
    Max = 65536;
  for (int Fd = ReportFd + 1; Fd < Max; ++Fd)
    ::close(Fd);
}

[[noreturn]] static void childMain(int PipeFd, const char *const *Libraries) {
  if (PipeFd != ReportFd) {
    ::dup2(PipeFd, ReportFd);
    ::close(PipeFd);
  }
  closeOtherDescriptors();
  int Null = ::open("/dev/null", O_RDWR);
  if (Null >= 0) {
    ::dup2(Null, 0);
    ::dup2(Null, 1); // libcuda should not print into our output
    ::dup2(Null, 2);
    if (Null > 2)
      ::close(Null);
  }
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
    ::_exit(0);
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
    ::_exit(0);
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
    for (int I = 0; R == 0 && I < Count; ++I) {
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
  ::_exit(0);
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

  int Fds[2];
  if (::pipe2(Fds, O_CLOEXEC) != 0) {
    Outcome.SpawnError = std::string("pipe: ") + std::strerror(errno);
    return Outcome;
  }
  pid_t Pid = ::fork();
  if (Pid < 0) {
    Outcome.SpawnError = std::string("fork: ") + std::strerror(errno);
    ::close(Fds[0]);
    ::close(Fds[1]);
    return Outcome;
  }
  if (Pid == 0) {
    ::close(Fds[0]);
    childMain(Fds[1], Names.data());
  }
  ::close(Fds[1]);

  using Clock = std::chrono::steady_clock;
  Clock::time_point Deadline = Clock::now() + Timeout;
  auto MsLeft = [&]() -> int {
    auto Left = std::chrono::duration_cast<std::chrono::milliseconds>(
        Deadline - Clock::now());
    return Left.count() > 0 ? static_cast<int>(Left.count()) : 0;
  };

  std::string Text;
  bool Eof = false;
  while (!Eof) {
    int Left = MsLeft();
    if (Left == 0)
      break;
    pollfd P{Fds[0], POLLIN, 0};
    int Ready = ::poll(&P, 1, Left);
    if (Ready < 0 && errno == EINTR)
      continue;
    if (Ready <= 0)
      break;
    char Buffer[4096];
    ssize_t N = ::read(Fds[0], Buffer, sizeof(Buffer));
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      Eof = true;
    else
      Text.append(Buffer, static_cast<size_t>(N));
  }
  ::close(Fds[0]);

  // The pipe is closed: the child is exiting (or stuck). Reap it before the
  // deadline, else kill it.
  int Status = 0;
  bool Reaped = false;
  while (!Reaped) {
    pid_t R = ::waitpid(Pid, &Status, WNOHANG);
    if (R == Pid) {
      Reaped = true;
      break;
    }
    if (R < 0 && errno != EINTR)
      break;
    if (MsLeft() == 0)
      break;
    ::usleep(1000);
  }
  if (!Reaped) {
    Outcome.TimedOut = true;
    ::kill(Pid, SIGKILL);
    while (::waitpid(Pid, &Status, 0) < 0 && errno == EINTR) {
    }
  } else if (WIFSIGNALED(Status)) {
    Outcome.Signal = WTERMSIG(Status);
  }
  Outcome.Report = parseLibcudaReport(Text);
  return Outcome;
}

} // namespace cudadeps::driver
