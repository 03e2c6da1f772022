//===- GitModule.cpp - find and open libcudadeps-git.so
//--------------------===//

#include "core/fetch/GitModule.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <dlfcn.h>

#include <mutex>

using namespace llvm;

namespace cudadeps {

static int anchor;

std::string defaultGitModulePath() {
  std::string Exe = sys::fs::getMainExecutable(nullptr, &anchor);
  SmallString<256> P(sys::path::parent_path(sys::path::parent_path(Exe)));
  sys::path::append(P, "lib", "cudadeps", "libcudadeps-git.so");
  return std::string(P);
}

static Expected<libgit::Backend *> open(const std::string &Path) {
  std::string Why = "cannot fetch: the git module " + Path;
  void *Lib = ::dlopen(Path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!Lib) {
    const char *E = ::dlerror();
    return createStringError(
        inconvertibleErrorCode(),
        "%s cannot be loaded: %s (it is built and installed with cudadeps, "
        "in <prefix>/lib/cudadeps/; reinstall cudadeps or build the "
        "'cudadeps-git' target)",
        Why.c_str(), E ? E : "dlopen failed");
  }
  using Entry = libgit::Backend *(*)(int);
  auto *Fn = reinterpret_cast<Entry>(::dlsym(Lib, libgit::BackendEntryPoint));
  if (!Fn)
    return createStringError(inconvertibleErrorCode(),
                             "%s is not a cudadeps git module (it has no "
                             "'%s' entry point)",
                             Why.c_str(), libgit::BackendEntryPoint);
  libgit::Backend *B = Fn(libgit::BackendAbiVersion);
  if (!B)
    return createStringError(inconvertibleErrorCode(),
                             "%s belongs to another build of cudadeps (it does "
                             "not speak git module version %d); reinstall "
                             "cudadeps",
                             Why.c_str(), libgit::BackendAbiVersion);
  return B;
}

Expected<libgit::Backend *> loadGitBackend(StringRef Path) {
  std::string File = Path.empty() ? defaultGitModulePath() : Path.str();
  static std::mutex Lock;
  static StringMap<libgit::Backend *> Opened;
  std::lock_guard<std::mutex> Guard(Lock);
  if (libgit::Backend *B = Opened.lookup(File))
    return B;
  Expected<libgit::Backend *> B = open(File);
  if (B)
    Opened[File] = *B;
  return B;
}

} // namespace cudadeps
