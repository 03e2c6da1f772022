//===- LoadableModule.cpp - open a cudadeps module (dlopen) on demand ------===//

#include "core/support/LoadableModule.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <dlfcn.h>

#include <mutex>

using namespace llvm;

namespace cudadeps {

static int anchor;

std::string defaultModulePath(const ModuleKind &Kind) {
  std::string Exe = sys::fs::getMainExecutable(nullptr, &anchor);
  SmallString<256> P(sys::path::parent_path(sys::path::parent_path(Exe)));
  sys::path::append(P, "lib", "cudadeps", Kind.FileName);
  return std::string(P);
}

static Expected<void *> open(const ModuleKind &Kind, EntryCall Call,
                             const std::string &Path) {
  std::string Why = std::string(Kind.Purpose) + ": the " + Kind.Name +
                    " module " + Path;
  void *Lib = ::dlopen(Path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!Lib) {
    const char *E = ::dlerror();
    return createStringError(
        inconvertibleErrorCode(),
        "%s cannot be loaded: %s (it is built and installed with cudadeps, "
        "in <prefix>/lib/cudadeps/; reinstall cudadeps or build the "
        "'%s' target)",
        Why.c_str(), E ? E : "dlopen failed", Kind.Target);
  }
  void *Fn = ::dlsym(Lib, Kind.EntryPoint);
  if (!Fn)
    return createStringError(inconvertibleErrorCode(),
                             "%s is not a cudadeps %s module (it has no "
                             "'%s' entry point)",
                             Why.c_str(), Kind.Name, Kind.EntryPoint);
  void *Backend = Call(Fn, Kind.AbiVersion);
  if (!Backend)
    return createStringError(inconvertibleErrorCode(),
                             "%s belongs to another build of cudadeps (it does "
                             "not speak %s module version %d); reinstall "
                             "cudadeps",
                             Why.c_str(), Kind.Name, Kind.AbiVersion);
  return Backend;
}

Expected<void *> loadModule(const ModuleKind &Kind, EntryCall Call,
                            StringRef Path) {
  std::string File = Path.empty() ? defaultModulePath(Kind) : Path.str();
  static std::mutex Lock;
  static StringMap<void *> Opened; // by entry point, version and path
  std::string Key = std::string(Kind.EntryPoint) + '\0' +
                    std::to_string(Kind.AbiVersion) + '\0' + File;
  std::lock_guard<std::mutex> Guard(Lock);
  if (void *B = Opened.lookup(Key))
    return B;
  Expected<void *> B = open(Kind, Call, File);
  if (B)
    Opened[Key] = *B;
  return B;
}

} // namespace cudadeps
