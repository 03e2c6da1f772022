//===- RealToolkitTest.cpp - the tables against the toolkits on this machine
//===//
//
// For every real CUDA toolkit found here, the knowledge base row for its
// nvcc version must agree with the toolkit itself (expectRowMatches in
// ToolkitEvidence.h):
//   - `nvcc --version` (else `ptxas --version`) picks the row;
//   - crt/host_config.h         -> max_gcc and max_clang;
//   - `nvcc --list-gpu-code`    -> the row's archs;
//   - `ptxas --help`            -> archs, arch_specific and family (the
//                                  sm_XX, sm_XXa and sm_XXf --gpu-name values).
//
// Toolkits looked at: /usr/local/cuda, every /usr/local/cuda-*, each
// directory of $CUDADEPS_TEST_TOOLKITS (colon-separated) and
// $CUDADEPS_EXTRA_TOOLKIT. A directory is a CUDA_HOME-like tree or an
// extracted wheel tree: bin/nvcc and/or bin/ptxas, and include/crt/
// host_config.h or targets/*/include/crt/host_config.h. What is absent is
// printed and skipped; the test skips when no toolkit is present at all. It
// never downloads anything.
//
// To check NVIDIA's wheels by hand (the cu12 Linux wheels ship ptxas but no
// nvcc; CUDA 13 needs nvidia-cuda-crt next to nvidia-cuda-nvcc):
//   pip download --no-deps nvidia-cuda-nvcc-cu12==12.8.93 -d /tmp/w
//   unzip /tmp/w/*.whl 'nvidia/cuda_nvcc/*' -d /tmp/w/x
//   CUDADEPS_TEST_TOOLKITS=/tmp/w/x/nvidia/cuda_nvcc
//       build/bin/unit_knowledge --gtest_filter='RealToolkit*'
//
//===----------------------------------------------------------------------===//

#include "tests/unit/knowledge/ToolkitEvidence.h"

#include "core/manifest/KnowledgeBase.h"
#include "core/support/Process.h"
#include "plugins/nvcc/NvccProbe.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>
#include <optional>
#include <set>
#include <string>
#include <vector>

using namespace cudadeps;
using llvm::Expected;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

namespace {

/// Runs argv (no shell) with a timeout; its stdout and stderr, or nullopt
/// with a test failure recorded.
std::optional<std::string> runTool(const std::vector<std::string> &Argv) {
  RealProcessRunner Runner;
  ProcessRequest Req;
  Req.Argv = Argv;
  Req.Timeout = std::chrono::seconds(120);
  Expected<ProcessResult> R = Runner.run(Req);
  if (!R) {
    ADD_FAILURE() << llvm::join(Argv, " ")
                  << " did not start: " << llvm::toString(R.takeError());
    return std::nullopt;
  }
  if (R->ExitCode != 0 || R->TimedOut) {
    ADD_FAILURE() << llvm::join(Argv, " ") << " failed (exit " << R->ExitCode
                  << (R->TimedOut ? ", timed out" : "") << "):\n"
                  << R->Out << R->Err;
    return std::nullopt;
  }
  return R->Out + R->Err;
}

std::optional<std::string> findHostConfig(llvm::StringRef Root) {
  llvm::SmallString<256> P(Root);
  path::append(P, "include", "crt", "host_config.h");
  if (fs::exists(P))
    return std::string(P);
  llvm::SmallString<256> Targets(Root);
  path::append(Targets, "targets");
  std::error_code EC;
  for (fs::directory_iterator It(Targets, EC), End; It != End && !EC;
       It.increment(EC)) {
    llvm::SmallString<256> Q(It->path());
    path::append(Q, "include", "crt", "host_config.h");
    if (fs::exists(Q))
      return std::string(Q);
  }
  return std::nullopt;
}

std::string binary(llvm::StringRef Root, llvm::StringRef Name) {
  llvm::SmallString<256> P(Root);
  path::append(P, "bin", Name);
  return std::string(P);
}

/// What is absent from Root for the check, or "" when it can be checked.
std::string whyNotAToolkit(llvm::StringRef Root) {
  if (!fs::is_directory(Root))
    return "not a directory";
  if (!fs::can_execute(binary(Root, "nvcc")) &&
      !fs::can_execute(binary(Root, "ptxas")))
    return "no executable bin/nvcc or bin/ptxas";
  if (!findHostConfig(Root))
    return "no include/crt/host_config.h or "
           "targets/*/include/crt/host_config.h";
  return "";
}

/// Candidate roots: the standard places, then the ones the environment
/// names; each real path once.
std::vector<std::string> candidateRoots() {
  std::vector<std::string> Candidates = {"/usr/local/cuda"};
  std::error_code EC;
  std::vector<std::string> Versioned;
  for (fs::directory_iterator It("/usr/local", EC), End; It != End && !EC;
       It.increment(EC))
    if (path::filename(It->path()).startswith("cuda-"))
      Versioned.push_back(It->path());
  llvm::sort(Versioned);
  Candidates.insert(Candidates.end(), Versioned.begin(), Versioned.end());
  for (const char *Var : {"CUDADEPS_TEST_TOOLKITS", "CUDADEPS_EXTRA_TOOLKIT"})
    if (const char *Value = std::getenv(Var)) {
      llvm::SmallVector<llvm::StringRef, 4> Parts;
      llvm::StringRef(Value).split(Parts, ':', -1, /*KeepEmpty=*/false);
      for (llvm::StringRef P : Parts)
        Candidates.push_back(P.str());
    }
  std::vector<std::string> Out;
  std::set<std::string> Seen;
  for (const std::string &C : Candidates) {
    llvm::SmallString<256> Real;
    if (fs::real_path(C, Real))
      Real = C;
    if (Seen.insert(std::string(Real)).second)
      Out.push_back(C);
  }
  return Out;
}

/// Reads Root's version, host_config.h, --list-gpu-code and ptxas --help.
ToolkitEvidence readToolkit(const std::string &Root) {
  ToolkitEvidence E;
  E.Origin = Root;
  std::string Nvcc = binary(Root, "nvcc"), Ptxas = binary(Root, "ptxas");
  bool HasNvcc = fs::can_execute(Nvcc), HasPtxas = fs::can_execute(Ptxas);
  if (std::optional<std::string> Out =
          runTool({HasNvcc ? Nvcc : Ptxas, "--version"}))
    E.Nvcc = parseToolVersion(*Out);
  if (std::optional<std::string> Header = findHostConfig(Root))
    if (auto Buf = llvm::MemoryBuffer::getFile(*Header))
      E.HostConfig = (*Buf)->getBuffer().str();
  if (HasNvcc)
    if (std::optional<std::string> Out = runTool({Nvcc, "--list-gpu-code"}))
      E.GpuCode = nvcc::parseGpuCodeList(*Out);
  if (HasPtxas)
    if (std::optional<std::string> Out = runTool({Ptxas, "--help"}))
      E.GpuNames = parsePtxasGpuNames(*Out);
  return E;
}

TEST(RealToolkit, KnowledgeBaseAgreesWithEveryToolkitHere) {
  std::vector<std::string> Roots;
  for (const std::string &C : candidateRoots()) {
    std::string Why = whyNotAToolkit(C);
    if (Why.empty()) {
      Roots.push_back(C);
      continue;
    }
    // /usr/local/cuda-* and the standard root are optional; say why each
    // named one is left out.
    std::cout << "[ SKIPPED  ] toolkit " << C << ": " << Why << "\n";
  }
  if (Roots.empty())
    GTEST_SKIP() << "no CUDA toolkit here (looked at /usr/local/cuda, "
                    "/usr/local/cuda-*, $CUDADEPS_TEST_TOOLKITS, "
                    "$CUDADEPS_EXTRA_TOOLKIT)";
  Expected<KnowledgeBase> KB =
      KnowledgeBase::loadDirectory(CUDADEPS_SOURCE_DIR "/manifests/cuda");
  ASSERT_TRUE(bool(KB)) << llvm::toString(KB.takeError());
  for (const std::string &Root : Roots) {
    ToolkitEvidence E = readToolkit(Root);
    std::cout << "[ TOOLKIT  ] " << Root << ": nvcc "
              << (E.Nvcc ? E.Nvcc->str() : "?")
              << (E.GpuCode ? ", --list-gpu-code" : "")
              << (E.GpuNames ? ", ptxas --help" : "") << "\n";
    ASSERT_TRUE(E.Nvcc.has_value())
        << Root << ": cannot read the version of its nvcc or ptxas";
    ASSERT_TRUE(E.HostConfig.has_value()) << Root << ": host_config.h";
    expectRowMatches(*KB, E);
  }
}

} // namespace
