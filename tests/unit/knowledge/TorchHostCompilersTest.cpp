//===- TorchHostCompilersTest.cpp - torch's host-compiler table as data ---===//
//
// manifests/cuda/torch-host-compilers.toml as shipped (what
// torch/utils/cpp_extension.py says at each torch minor) and the loader's
// diagnostics for broken rows.
//
//===----------------------------------------------------------------------===//

#include "core/manifest/KnowledgeBase.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>

using namespace cudadeps;
using ::testing::HasSubstr;

namespace {

Version v(llvm::StringRef Text) {
  llvm::Expected<Version> V = Version::parse(Text);
  if (!V) {
    ADD_FAILURE() << llvm::toString(V.takeError());
    return Version();
  }
  return *V;
}

const KnowledgeBase &shipped() {
  static const KnowledgeBase KB = [] {
    llvm::Expected<KnowledgeBase> Loaded =
        KnowledgeBase::loadDirectory(CUDADEPS_SOURCE_DIR "/manifests/cuda");
    if (!Loaded) {
      ADD_FAILURE() << llvm::toString(Loaded.takeError());
      return KnowledgeBase();
    }
    return std::move(*Loaded);
  }();
  return KB;
}

/// Whether torch \p Torch accepts \p Family \p Compiler with nvcc \p Nvcc:
/// "yes", "no" or "unchecked" (no entry: torch only warns).
std::string accepts(llvm::StringRef Torch, llvm::StringRef Family,
                    llvm::StringRef Compiler, llvm::StringRef Nvcc) {
  const TorchHostCompilerRow *Row = shipped().torchHostCompilers(v(Torch));
  if (!Row)
    return "no row";
  const TorchCompilerBound *B = Row->bound(Family, v(Nvcc));
  if (!B)
    return "unchecked";
  return B->accepted().contains(v(Compiler)) ? "yes" : "no";
}

std::string errorsOf(llvm::StringRef Text) {
  KnowledgeBase KB;
  llvm::Error E = KB.addFile(Text, "t.toml");
  std::string Out;
  llvm::handleAllErrors(std::move(E), [&](const DiagnosticError &D) {
    for (const Diagnostic &Diag : D.diagnostics())
      Out += Diag.render();
  });
  return Out;
}

} // namespace

TEST(TorchHostCompilers, EveryTorchMinorOfTheKnowledgeBaseHasACitedRow) {
  const KnowledgeBase &KB = shipped();
  ASSERT_FALSE(KB.torchRows().empty());
  for (const TorchRow &T : KB.torchRows()) {
    const TorchHostCompilerRow *Row = KB.torchHostCompilers(T.Torch);
    ASSERT_NE(Row, nullptr) << "torch " << T.Torch.str();
    EXPECT_THAT(Row->Source, HasSubstr("torch/utils/cpp_extension.py of torch " +
                                       T.Torch.str() + ".0"));
    EXPECT_FALSE(Row->Bounds.empty());
  }
}

/// "(6, 0, 0)" -> "6.0.0"; a name (MINIMUM_GCC_VERSION) through \p Names.
static std::string tupleVersion(llvm::StringRef Text,
                                const std::map<std::string, std::string> &Names) {
  Text = Text.trim();
  auto It = Names.find(Text.str());
  if (It != Names.end())
    return It->second;
  Text.consume_front("(");
  Text.consume_back(")");
  llvm::SmallVector<llvm::StringRef, 3> Parts;
  Text.split(Parts, ',', -1, false);
  std::string Out;
  for (llvm::StringRef P : Parts)
    Out += (Out.empty() ? "" : ".") + P.trim().str();
  return Out;
}

// Every row against the verbatim lines of cpp_extension.py it was read from
// (tests/fixtures/torch-cpp-extension/cpp_extension-X.Y.Z.txt).
TEST(TorchHostCompilers, RowsMatchTheVerbatimSource) {
  std::string Dir = CUDADEPS_FIXTURES_DIR "/torch-cpp-extension";
  std::error_code EC;
  unsigned Files = 0;
  for (llvm::sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC)) {
    llvm::StringRef Name = llvm::sys::path::filename(It->path());
    llvm::StringRef Ver = Name;
    if (!Ver.consume_front("cpp_extension-") || !Ver.consume_back(".txt"))
      continue;
    ++Files;
    auto Buf = llvm::MemoryBuffer::getFile(It->path());
    ASSERT_TRUE(bool(Buf)) << It->path();
    const TorchHostCompilerRow *Row = shipped().torchHostCompilers(v(Ver));
    ASSERT_NE(Row, nullptr) << Name.str();
    EXPECT_THAT(Row->Source, HasSubstr((*Buf)->getBuffer().split('\n').first
                                           .split("RECORD ").second.split(')')
                                           .first.str()));
    std::map<std::string, std::string> Names;
    llvm::Regex Minimum("^[0-9]+:(MINIMUM_[A-Z]+_VERSION) = (\\([0-9, ]+\\))");
    llvm::Regex Entry("^[0-9]+:    '([0-9.]+)': \\(([A-Z_]+|\\([0-9, ]+\\)), "
                      "(\\([0-9, ]+\\))\\),");
    llvm::Regex Special("max_(excl_)?compiler_version = (\\([0-9, ]+\\))");
    std::string Family;
    bool Inclusive = false;
    unsigned Entries = 0;
    llvm::SmallVector<llvm::StringRef, 64> Lines;
    (*Buf)->getBuffer().split(Lines, '\n');
    for (llvm::StringRef L : Lines) {
      llvm::SmallVector<llvm::StringRef, 4> M;
      if (Minimum.match(L, &M))
        Names[M[1].str()] = tupleVersion(M[2], Names);
      if (L.contains("CUDA_GCC_VERSIONS") && L.contains("= {"))
        Family = "gcc";
      if (L.contains("CUDA_CLANG_VERSIONS") && L.contains("= {"))
        Family = "clang";
      if (L.contains("if compiler_version > TorchVersion(max"))
        Inclusive = true;
      if (Entry.match(L, &M)) {
        ++Entries;
        const TorchCompilerBound *B = Row->bound(Family, v(M[1]));
        ASSERT_NE(B, nullptr) << Name.str() << ": " << L.str();
        EXPECT_EQ(B->Cuda, v(M[1])) << L.str();
        EXPECT_EQ(B->Min, v(tupleVersion(M[2], Names))) << Name.str() << ": " << L.str();
        EXPECT_EQ(B->Max, v(tupleVersion(M[3], Names))) << Name.str() << ": " << L.str();
      }
      if (Special.match(L, &M)) {
        const TorchCompilerBound *B = Row->bound("gcc", v("11.4.48"));
        ASSERT_NE(B, nullptr) << Name.str();
        EXPECT_EQ(B->Cuda, v("11.4.48"));
        EXPECT_EQ(B->Max, v(tupleVersion(M[2], Names))) << Name.str();
      }
    }
    // Nothing more in the row than in the file (+1: the 11.4.48 entry).
    EXPECT_EQ(Row->Bounds.size(), Entries + 1) << Name.str();
    for (const TorchCompilerBound &B : Row->Bounds)
      EXPECT_EQ(B.MaxInclusive, Inclusive) << Name.str();
  }
  EXPECT_EQ(Files, shipped().torchHostCompilerRows().size());
}

TEST(TorchHostCompilers, WhatCppExtensionSaysPerMinor) {
  // torch 2.11: CUDA_GCC_VERSIONS['12.8'] = ((6, 0, 0), (14, 0)), exclusive.
  EXPECT_EQ(accepts("2.11.0+cu128", "gcc", "14.2.0", "12.8.93"), "no");
  EXPECT_EQ(accepts("2.11.0+cu128", "gcc", "14.0", "12.8.93"), "no");
  EXPECT_EQ(accepts("2.11.0+cu128", "gcc", "13.3.0", "12.8.93"), "yes");
  EXPECT_EQ(accepts("2.11.0+cu128", "gcc", "5.4.0", "12.8.93"), "no");
  EXPECT_EQ(accepts("2.11.0", "gcc", "15.1.0", "13.0.88"), "yes");
  EXPECT_EQ(accepts("2.11.0", "gcc", "16.1.0", "13.0.88"), "no");
  EXPECT_EQ(accepts("2.11.0", "clang", "19.1.0", "12.8.93"), "no");
  EXPECT_EQ(accepts("2.11.0", "clang", "18.1.8", "12.8.93"), "yes");
  EXPECT_EQ(accepts("2.11.0", "gcc", "14.2.0", "13.2.51"), "unchecked");
  // torch 2.12 raised the gcc limit for CUDA 12.8 to (15, 0).
  EXPECT_EQ(accepts("2.12.0+cu128", "gcc", "14.2.0", "12.8.93"), "yes");
  // torch 2.0-2.10 list CUDA 11.x only: 12.x is a warning, not a check.
  EXPECT_EQ(accepts("2.8.0+cu128", "gcc", "14.2.0", "12.8.93"), "unchecked");
  EXPECT_EQ(accepts("2.7.1+cu118", "gcc", "12.2.0", "11.7.99"), "no");
  // The 11.4.0 special case (nvcc V11.4.48): gcc < 11 there, < 12 in 11.4.x.
  EXPECT_EQ(accepts("2.4.0", "gcc", "11.2.0", "11.4.48"), "no");
  EXPECT_EQ(accepts("2.4.0", "gcc", "11.2.0", "11.4.152"), "yes");
  // torch 1.13 compares `version > max`: the maximum itself is accepted.
  EXPECT_EQ(accepts("1.13.1", "gcc", "11.5.0", "11.7.99"), "yes");
  EXPECT_EQ(accepts("1.13.1", "gcc", "11.5.1", "11.7.99"), "no");
  EXPECT_EQ(shipped().torchHostCompilers(v("1.12.1")), nullptr);
}

TEST(TorchHostCompilers, BrokenRowsAreLocatedErrors) {
  EXPECT_THAT(errorsOf("[[torch_host_compilers]]\ntorch = \"2.11\"\n"
                       "[torch_host_compilers.gcc]\n\"12.8\" = [\"6.0.0\", \"14.0\"]\n"),
              HasSubstr("t.toml:2:9: error: torch 2.11: every row must cite "
                        "its source"));
  EXPECT_THAT(errorsOf("[[torch_host_compilers]]\ntorch = \"2.11\"\nsource = \"s\"\n"
                       "[torch_host_compilers.gcc]\n\"12.8\" = [\"14.0\", \"6.0\"]\n"),
              HasSubstr("t.toml:5:10: error: 'gcc.12.8' accepts no compiler "
                        "(>=14.0, <6.0)"));
  EXPECT_THAT(errorsOf("[[torch_host_compilers]]\ntorch = \"2.11\"\nsource = \"s\"\n"
                       "[torch_host_compilers.gcc]\n\"12.8\" = \"14\"\n"),
              HasSubstr("expected [min, max] for 'gcc.12.8'"));
  EXPECT_THAT(errorsOf("[[torch_host_compilers]]\ntorch = \"2.11.0\"\nsource = \"s\"\n"),
              HasSubstr("'torch' must be a torch minor such as \"2.11\""));
  EXPECT_THAT(errorsOf("[[torch_host_compilers]]\ntorch = \"2.11\"\nsource = \"s\"\n"
                       "gcc_versions = 1\n"),
              HasSubstr("t.toml:4:1: error: unknown key 'gcc_versions'"));
  EXPECT_THAT(errorsOf("[[torch_host_compilers]]\ntorch = \"2.11\"\nsource = \"s\"\n"
                       "upper = \"open\"\n"),
              HasSubstr("'upper' is \"exclusive\""));
  EXPECT_THAT(errorsOf("[[torch_host_compilers]]\ntorch = \"2.11\"\nsource = \"s\"\n"
                       "[[torch_host_compilers]]\ntorch = \"2.11\"\nsource = \"s\"\n"),
              HasSubstr("t.toml:5:9: error: torch 2.11 is listed twice"));
  EXPECT_EQ(errorsOf("[[torch_host_compilers]]\ntorch = \"2.11\"\nsource = \"s\"\n"
                     "[torch_host_compilers.clang]\n\"12.8\" = [\"7.0\", \"19.0\"]\n"),
            "");
}
