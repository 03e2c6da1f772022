//===- GitRepo.h - local git repositories made by tests --------------------===//
//
// Fetch and build tests need real repositories with tags and a submodule,
// made with the git command line in a temporary directory: no network.
// makeKernelProject lays out a tiny CUDA library with a cmake recipe whose
// kernel includes a header from a submodule, tagged v1.0 and v1.1.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_TESTS_SUPPORT_GITREPO_H
#define CUDADEPS_TESTS_SUPPORT_GITREPO_H

#include "tests/support/FakeToolkit.h"

#include "core/support/Process.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

namespace cudadeps::test {

/// The environment git runs with in tests: no user or system config.
inline std::map<std::string, std::string> gitEnv(llvm::StringRef Home) {
  std::map<std::string, std::string> Env = RealEnvironment().all();
  Env["HOME"] = Home.str();
  Env["XDG_CONFIG_HOME"] = (Home + "/.config").str();
  Env["GIT_CONFIG_NOSYSTEM"] = "1";
  Env["GIT_AUTHOR_NAME"] = Env["GIT_COMMITTER_NAME"] = "test";
  Env["GIT_AUTHOR_EMAIL"] = Env["GIT_COMMITTER_EMAIL"] = "test@example.com";
  Env["GIT_AUTHOR_DATE"] = Env["GIT_COMMITTER_DATE"] = "2026-01-01T00:00:00Z";
  return Env;
}

/// Runs git in \p Dir; an ADD_FAILURE and false when it fails.
inline bool git(llvm::StringRef Dir, std::vector<std::string> Args,
                llvm::StringRef Home, std::string *Out = nullptr) {
  ProcessRequest R;
  R.Argv = {"git", "-c", "init.defaultBranch=main", "-c",
            "protocol.file.allow=always"};
  R.Argv.insert(R.Argv.end(), Args.begin(), Args.end());
  R.Env = gitEnv(Home);
  R.WorkingDir = Dir.str();
  R.Timeout = std::chrono::seconds(60);
  RealProcessRunner Runner;
  auto Res = Runner.run(R);
  if (!Res) {
    ADD_FAILURE() << llvm::toString(Res.takeError());
    return false;
  }
  if (Res->ExitCode != 0) {
    ADD_FAILURE() << "git " << llvm::join(Args, " ") << ": " << Res->Err;
    return false;
  }
  if (Out)
    *Out = Res->Out;
  return true;
}

struct KernelProject {
  std::string Repo;      // the superproject (a plain directory path)
  std::string Submodule; // the submodule's repository
  std::string CommitV10; // full hex of tag v1.0
  std::string CommitV11;
};

/// <Root>/sub: a repository with include/scale.h (SCALE = 2 at v1.0 of the
/// project, 3 at v1.1). <Root>/repo: CMakeLists.txt + kernel.cu that
/// includes third_party/sub/include/scale.h, tags v1.0 and v1.1.
inline bool makeKernelProject(llvm::StringRef Root, llvm::StringRef Home,
                              KernelProject &P) {
  P.Submodule = (Root + "/sub").str();
  P.Repo = (Root + "/repo").str();
  if (!writeFile(P.Submodule + "/include/scale.h",
                 "#pragma once\n#define SCALE 2\n") ||
      !git(P.Submodule, {"init", "-q"}, Home) ||
      !git(P.Submodule, {"add", "."}, Home) ||
      !git(P.Submodule, {"commit", "-qm", "scale 2"}, Home))
    return false;
  const char *CMake = R"(cmake_minimum_required(VERSION 3.20)
project(kernel LANGUAGES CXX CUDA)
add_library(kernel SHARED kernel.cu)
target_include_directories(kernel PRIVATE third_party/sub/include)
install(TARGETS kernel LIBRARY DESTINATION lib)
)";
  const char *Kernel = R"(#include "scale.h"
__global__ void scale(float *X, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    X[I] *= SCALE;
}
extern "C" void launchScale(float *X, int N) {
  scale<<<(N + 255) / 256, 256>>>(X, N);
}
)";
  if (!writeFile(P.Repo + "/CMakeLists.txt", CMake) ||
      !writeFile(P.Repo + "/kernel.cu", Kernel) ||
      !git(P.Repo, {"init", "-q"}, Home) ||
      !git(P.Repo,
           {"submodule", "add", "-q", P.Submodule, "third_party/sub"}, Home) ||
      !git(P.Repo, {"add", "."}, Home) ||
      !git(P.Repo, {"commit", "-qm", "v1.0"}, Home) ||
      !git(P.Repo, {"tag", "v1.0"}, Home) ||
      !git(P.Repo, {"rev-parse", "v1.0^{commit}"}, Home, &P.CommitV10))
    return false;
  if (!writeFile(P.Submodule + "/include/scale.h",
                 "#pragma once\n#define SCALE 3\n") ||
      !git(P.Submodule, {"commit", "-qam", "scale 3"}, Home) ||
      !git(P.Repo + "/third_party/sub", {"pull", "-q", "origin", "main"},
           Home) ||
      !git(P.Repo, {"commit", "-qam", "v1.1"}, Home) ||
      !git(P.Repo, {"tag", "-a", "v1.1", "-m", "v1.1"}, Home) ||
      !git(P.Repo, {"rev-parse", "v1.1^{commit}"}, Home, &P.CommitV11))
    return false;
  P.CommitV10 = llvm::StringRef(P.CommitV10).trim().str();
  P.CommitV11 = llvm::StringRef(P.CommitV11).trim().str();
  return true;
}

/// <Dir>: a repository with an executable build.sh (\p Script) and
/// whatever \p Extra files, tagged v1.0; returns false on failure.
inline bool makeScriptProject(
    llvm::StringRef Dir, llvm::StringRef Home, llvm::StringRef Script,
    const std::map<std::string, std::string> &Extra = {}) {
  if (!writeFile((Dir + "/build.sh").str(), Script, /*Executable=*/true))
    return false;
  for (const auto &[Name, Text] : Extra)
    if (!writeFile((Dir + "/" + Name).str(), Text))
      return false;
  return git(Dir, {"init", "-q"}, Home) && git(Dir, {"add", "."}, Home) &&
         git(Dir, {"commit", "-qm", "v1.0"}, Home) &&
         git(Dir, {"tag", "v1.0"}, Home);
}

/// A facts file for build tests: one nvcc (\p Nvcc, \p NvccVersion), the
/// host g++ (\p Cxx, \p CxxVersion), a platform, optionally Python and
/// torch lines (\p Extra, TOML).
inline std::string buildFacts(llvm::StringRef Nvcc, llvm::StringRef NvccVersion,
                              llvm::StringRef Cxx, llvm::StringRef CxxVersion,
                              llvm::StringRef Extra = {}) {
  return ("[[nvcc]]\npath = \"" + Nvcc + "\"\nversion = \"" + NvccVersion +
          "\"\n\n[[compiler]]\npath = \"" + Cxx +
          "\"\nfamily = \"gcc\"\nversion = \"" + CxxVersion +
          "\"\n\n[platform]\nos = \"linux\"\narch = \"x86_64\"\ncpus = 2\n"
          "memory_gib = 8\n\n" +
          Extra)
      .str();
}

} // namespace cudadeps::test

#endif
