//===- RealToolkitTest.cpp - the tables against the toolkits on this machine
//===//
//
// For every real CUDA toolkit found here, the knowledge base row for its
// nvcc version must agree with the toolkit itself:
//   - `nvcc --version`          -> "release X.Y, VX.Y.Z" picks the row;
//   - crt/host_config.h         -> `#if __GNUC__ > N` gives max_gcc = N, and
//                                  the `__clang_major__ >= N` test guarding
//                                  "unsupported clang version" gives
//                                  max_clang = N - 1;
//   - `nvcc --list-gpu-code`    -> the sm_XX lines equal the row's archs.
//
// Toolkits looked at: /usr/local/cuda, every /usr/local/cuda-*, and the root
// named by $CUDADEPS_EXTRA_TOOLKIT (a directory with bin/nvcc and
// include/crt/host_config.h or targets/*/include/crt/host_config.h). The
// test skips when none is present; it never downloads anything.
//
// To check a second toolkit by hand, e.g. from NVIDIA's pip wheels (CUDA 13
// wheels contain bin/nvcc; the Linux cu12 nvcc wheels reportedly ship only
// ptxas, see cuda-facts.md section 4):
//   python3 -m venv /tmp/tk
//   /tmp/tk/bin/pip install nvidia-cuda-nvcc==13.0.88 nvidia-cuda-crt==13.0.88
//       nvidia-nvvm==13.0.88              (one command line)
//   CUDADEPS_EXTRA_TOOLKIT=/tmp/tk/lib/python3.X/site-packages/nvidia/cu13
//       build/bin/unit_knowledge --gtest_filter='RealToolkit*'
// (for a runfile or conda toolkit, point it at the directory holding bin/nvcc).
//
//===----------------------------------------------------------------------===//

#include "core/manifest/KnowledgeBase.h"
#include "tests/unit/version/Printers.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <set>
#include <string>
#include <vector>

using namespace cudadeps;
using llvm::Expected;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

namespace {

/// Runs argv (no shell) with a timeout; stdout+stderr, or nullopt on
/// failure (with a test failure recorded).
std::optional<std::string> runTool(const std::vector<std::string> &Argv) {
  llvm::SmallString<128> OutFile;
  if (std::error_code EC =
          fs::createTemporaryFile("cudadeps-nvcc", "txt", OutFile)) {
    ADD_FAILURE() << "cannot create a temporary file: " << EC.message();
    return std::nullopt;
  }
  std::vector<llvm::StringRef> Args(Argv.begin(), Argv.end());
  llvm::Optional<llvm::StringRef> Redirects[] = {
      llvm::StringRef(""), llvm::StringRef(OutFile), llvm::StringRef(OutFile)};
  std::string ErrMsg;
  int RC = llvm::sys::ExecuteAndWait(Argv[0], Args, llvm::None, Redirects,
                                     /*SecondsToWait=*/120, 0, &ErrMsg);
  auto Buf = llvm::MemoryBuffer::getFile(OutFile);
  std::string Out = Buf ? (*Buf)->getBuffer().str() : "";
  fs::remove(OutFile);
  if (RC != 0) {
    ADD_FAILURE() << llvm::join(Argv, " ") << " failed (" << RC
                  << "): " << ErrMsg << "\n"
                  << Out;
    return std::nullopt;
  }
  return Out;
}

/// "Cuda compilation tools, release 13.0, V13.0.88" -> 13.0.88.
std::optional<Version> parseNvccVersion(llvm::StringRef Out) {
  size_t At = Out.find("release ");
  if (At == llvm::StringRef::npos)
    return std::nullopt;
  llvm::StringRef Line =
      Out.substr(At).take_until([](char C) { return C == '\n'; });
  size_t V = Line.find(", V");
  if (V == llvm::StringRef::npos)
    return std::nullopt;
  llvm::StringRef Text = Line.substr(V + 3).take_while(
      [](char C) { return llvm::isDigit(C) || C == '.'; });
  Expected<Version> Parsed = Version::parse(Text);
  if (!Parsed) {
    llvm::consumeError(Parsed.takeError());
    return std::nullopt;
  }
  return *Parsed;
}

/// The number after Marker on Line ("__GNUC__ > " -> 15), if any.
std::optional<unsigned> numberAfter(llvm::StringRef Line,
                                    llvm::StringRef Marker) {
  size_t At = Line.find(Marker);
  if (At == llvm::StringRef::npos)
    return std::nullopt;
  llvm::StringRef Digits =
      Line.substr(At + Marker.size()).ltrim().take_while(llvm::isDigit);
  unsigned N = 0;
  if (Digits.empty() || Digits.getAsInteger(10, N))
    return std::nullopt;
  return N;
}

struct HostBounds {
  std::optional<unsigned> GccAbove;     // `#if __GNUC__ > N`
  std::optional<unsigned> ClangAtLeast; // `__clang_major__ >= N` (rejected)
};

/// Reads the host-compiler checks of crt/host_config.h. The clang bound is
/// the `#if` test right before "#error -- unsupported clang version!" (the
/// HOS and Grace clang checks have their own messages).
HostBounds parseHostConfig(llvm::StringRef Text) {
  HostBounds B;
  std::optional<unsigned> LastClangTest;
  llvm::SmallVector<llvm::StringRef, 0> Lines;
  Text.split(Lines, '\n');
  for (llvm::StringRef Line : Lines) {
    llvm::StringRef T = Line.trim();
    if (T.startswith("#if") && !B.GccAbove)
      B.GccAbove = numberAfter(T, "__GNUC__ >");
    if (T.startswith("#if"))
      if (auto N = numberAfter(T, "__clang_major__ >="))
        LastClangTest = N;
    if (T.startswith("#error") && T.contains("unsupported clang version!") &&
        !B.ClangAtLeast)
      B.ClangAtLeast = LastClangTest;
  }
  return B;
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

/// Toolkit roots on this machine, each once (by real path).
std::vector<std::string> toolkitRoots() {
  std::vector<std::string> Candidates = {"/usr/local/cuda"};
  std::error_code EC;
  std::vector<std::string> Versioned;
  for (fs::directory_iterator It("/usr/local", EC), End; It != End && !EC;
       It.increment(EC))
    if (path::filename(It->path()).startswith("cuda-"))
      Versioned.push_back(It->path());
  llvm::sort(Versioned);
  Candidates.insert(Candidates.end(), Versioned.begin(), Versioned.end());
  if (const char *Extra = std::getenv("CUDADEPS_EXTRA_TOOLKIT"))
    if (*Extra)
      Candidates.push_back(Extra);

  std::vector<std::string> Roots;
  std::set<std::string> Seen;
  for (const std::string &C : Candidates) {
    llvm::SmallString<256> Nvcc(C);
    path::append(Nvcc, "bin", "nvcc");
    if (!fs::can_execute(Nvcc))
      continue;
    llvm::SmallString<256> Real;
    if (fs::real_path(C, Real))
      Real = C;
    if (Seen.insert(std::string(Real)).second)
      Roots.push_back(C);
  }
  return Roots;
}

class RealToolkit : public ::testing::Test {
protected:
  void SetUp() override {
    Roots = toolkitRoots();
    if (Roots.empty())
      GTEST_SKIP() << "no CUDA toolkit at /usr/local/cuda";
    Expected<KnowledgeBase> Loaded =
        KnowledgeBase::loadDirectory(CUDADEPS_SOURCE_DIR "/manifests/cuda");
    ASSERT_TRUE(bool(Loaded)) << llvm::toString(Loaded.takeError());
    KB = std::move(*Loaded);
  }
  std::vector<std::string> Roots;
  KnowledgeBase KB;
};

TEST(RealToolkitParsers, ReadNvccOutputAndHostConfig) {
  EXPECT_EQ(parseNvccVersion("nvcc: NVIDIA (R) Cuda compiler driver\n"
                             "Cuda compilation tools, release 12.8, V12.8.93\n"
                             "Build cuda_12.8.r12.8/compiler.35583870_0\n"),
            Version(std::vector<uint64_t>{12, 8, 93}));
  EXPECT_EQ(parseNvccVersion("no version here"), std::nullopt);
  HostBounds B = parseHostConfig(
      "#if __GNUC__ > 14\n#error -- unsupported GNU version!\n#endif\n"
      "#if defined(__HORIZON__)\n#if (__clang_major__ >= 21)\n"
      "#error -- unsupported HOS clang version!\n#endif\n#endif\n"
      "#if (__clang_major__ >= 20) || (__clang_major__ < 3)\n"
      "#error -- unsupported clang version! clang version must be less "
      "than 20\n#endif\n");
  EXPECT_EQ(B.GccAbove, 14u);
  EXPECT_EQ(B.ClangAtLeast, 20u);
}

TEST_F(RealToolkit, KnowledgeBaseAgreesWithTheToolkit) {
  for (const std::string &Root : Roots) {
    SCOPED_TRACE("toolkit " + Root);
    llvm::SmallString<256> Nvcc(Root);
    path::append(Nvcc, "bin", "nvcc");

    std::optional<std::string> VersionOut =
        runTool({Nvcc.str().str(), "--version"});
    ASSERT_TRUE(VersionOut.has_value());
    std::optional<Version> V = parseNvccVersion(*VersionOut);
    ASSERT_TRUE(V.has_value()) << "cannot read the version in:\n"
                               << *VersionOut;
    const ToolkitRow *Row = KB.toolkit(*V);
    ASSERT_NE(Row, nullptr)
        << "the knowledge base has no row for nvcc " << V->str();
    SCOPED_TRACE("nvcc " + V->str() + ", row " + Row->RangeText + " at " +
                 Row->Loc.File + ":" + std::to_string(Row->Loc.Line));

    std::optional<std::string> Header = findHostConfig(Root);
    ASSERT_TRUE(Header.has_value()) << "no crt/host_config.h under " << Root;
    auto Buf = llvm::MemoryBuffer::getFile(*Header);
    ASSERT_TRUE(bool(Buf)) << *Header;
    HostBounds B = parseHostConfig((*Buf)->getBuffer());
    ASSERT_TRUE(B.GccAbove.has_value()) << "no __GNUC__ check in " << *Header;
    ASSERT_TRUE(B.ClangAtLeast.has_value()) << "no clang check in " << *Header;
    EXPECT_EQ(Row->MaxGcc, *B.GccAbove) << *Header;
    EXPECT_EQ(Row->MaxClang, *B.ClangAtLeast - 1) << *Header;

    std::optional<std::string> Codes =
        runTool({Nvcc.str().str(), "--list-gpu-code"});
    ASSERT_TRUE(Codes.has_value());
    std::set<std::string> Listed;
    llvm::SmallVector<llvm::StringRef, 0> Lines;
    llvm::StringRef(*Codes).split(Lines, '\n');
    for (llvm::StringRef L : Lines)
      if (L.trim().startswith("sm_"))
        Listed.insert(L.trim().str());
    ASSERT_FALSE(Listed.empty()) << "no sm_XX in --list-gpu-code:\n" << *Codes;
    std::set<std::string> Known(Row->Archs.begin(), Row->Archs.end());
    EXPECT_EQ(Known, Listed);
    for (const std::string &Arch : Listed)
      EXPECT_TRUE(KB.nvccRangeForArch(Arch).contains(*V)) << Arch;
  }
}

} // namespace
