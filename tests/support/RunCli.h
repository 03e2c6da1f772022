//===- RunCli.h - run the built cudadeps binary in tests --------------------===//
#ifndef CUDADEPS_TESTS_SUPPORT_RUNCLI_H
#define CUDADEPS_TESTS_SUPPORT_RUNCLI_H

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cudadeps::test {

struct RunResult {
  int Code = -1;
  std::string Out;
  std::string Err;
};

inline std::string readWhole(llvm::StringRef Path) {
  auto B = llvm::MemoryBuffer::getFile(Path);
  return B ? (*B)->getBuffer().str() : std::string();
}

/// Runs \p Program (a path) with Args in the working directory of the test.
/// Env entries replace or add variables of the current environment; an
/// entry with an empty value removes it.
inline RunResult runProgram(llvm::StringRef Program,
                            const std::vector<std::string> &Args,
                            const std::map<std::string, std::string> &Env = {},
                            unsigned TimeoutSeconds = 120) {
  llvm::SmallString<128> OutPath, ErrPath;
  llvm::sys::fs::createTemporaryFile("cudadeps-out", "txt", OutPath);
  llvm::sys::fs::createTemporaryFile("cudadeps-err", "txt", ErrPath);
  std::vector<llvm::StringRef> Argv{Program};
  for (const std::string &A : Args)
    Argv.push_back(A);
  std::vector<std::string> EnvStore;
  for (char **E = environ; *E; ++E) {
    llvm::StringRef KV(*E);
    if (!Env.count(KV.split('=').first.str()))
      EnvStore.push_back(KV.str());
  }
  for (const auto &[K, V] : Env)
    if (!V.empty())
      EnvStore.push_back(K + "=" + V);
  std::vector<llvm::StringRef> EnvRefs(EnvStore.begin(), EnvStore.end());
#if LLVM_VERSION_MAJOR >= 16
  std::optional<llvm::StringRef> Redirects[] = {llvm::StringRef(""),
                                                OutPath.str(), ErrPath.str()};
#else
  llvm::Optional<llvm::StringRef> Redirects[] = {llvm::StringRef(""),
                                                 OutPath.str(), ErrPath.str()};
#endif
  RunResult R;
  std::string ErrMsg;
  R.Code = llvm::sys::ExecuteAndWait(Program, Argv,
                                     llvm::ArrayRef<llvm::StringRef>(EnvRefs),
                                     Redirects, TimeoutSeconds, 0, &ErrMsg);
  R.Out = readWhole(OutPath);
  R.Err = readWhole(ErrPath) + ErrMsg;
  llvm::sys::fs::remove(OutPath);
  llvm::sys::fs::remove(ErrPath);
  return R;
}

/// The path of \p Name on PATH, or empty.
inline std::string findProgram(llvm::StringRef Name) {
  llvm::ErrorOr<std::string> P = llvm::sys::findProgramByName(Name);
  return P ? *P : std::string();
}

/// Runs CUDADEPS_BINARY with Args (NO_COLOR set); Env as for runProgram.
/// Unless \p Env names XDG_CACHE_HOME or HOME, the caches (probe answers,
/// loaded manifests) go to the build tree's test-cache/, shared by the
/// tests, never to the user's ~/.cache.
inline RunResult runCudadeps(const std::vector<std::string> &Args,
                             std::map<std::string, std::string> Env = {},
                             unsigned TimeoutSeconds = 120) {
  Env.emplace("NO_COLOR", "1");
  if (!Env.count("XDG_CACHE_HOME") && !Env.count("HOME"))
    Env.emplace("XDG_CACHE_HOME", CUDADEPS_BUILD_DIR "/test-cache");
  return runProgram(CUDADEPS_BINARY, Args, Env, TimeoutSeconds);
}

} // namespace cudadeps::test

#endif
