// checkConsistency: archs against the nvcc range, torch/cuda pairs of a
// prebuilt matrix, against a small in-memory knowledge base.
#include "ManifestTestUtil.h"

#include "core/manifest/Consistency.h"
#include "core/manifest/KnowledgeBase.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace cudadeps;
using namespace cudadeps::test;
using ::testing::HasSubstr;

namespace {

const char *KBText = R"(
[[toolkit]]
cuda = ">=11.8,<12"
archs = ["sm_53", "sm_80", "sm_90"]
max_gcc = 11
source = "test"
[[toolkit]]
cuda = ">=12.0,<13"
archs = ["sm_53", "sm_80", "sm_90"]
max_gcc = 12
source = "test"
[[toolkit]]
cuda = ">=13.0,<13.1"
archs = ["sm_80", "sm_90", "sm_100"]
max_gcc = 15
source = "test"
[[torch]]
torch = "2.4"
cuda = ["11.8", "12.4"]
python = ">=3.8,<3.13"
source = "test"
[[torch]]
torch = "2.9"
cuda = ["12.8", "13.0"]
source = "test"
)";

KnowledgeBase testKB() {
  KnowledgeBase KB;
  llvm::Error E = KB.addFile(KBText, "kb.toml");
  EXPECT_FALSE(bool(E)) << llvm::toString(std::move(E));
  return KB;
}

std::string pkg(llvm::StringRef Nvcc, llvm::StringRef Archs,
                llvm::StringRef Torch, llvm::StringRef Cuda) {
  std::string S = "schema = 1\n[package]\nname = \"p\"\n"
                  "git = \"https://e/p.git\"\nbuild = \"torch-extension\"\n"
                  "[requires]\nnvcc = \"" +
                  Nvcc.str() + "\"\n[[release]]\nversion = \"1.0\"\n";
  if (!Archs.empty())
    S += "archs = [" + Archs.str() + "]\n";
  if (!Torch.empty())
    S += "[release.prebuilt]\ntorch = [" + Torch.str() + "]\ncuda = [" +
         Cuda.str() +
         "]\n[prebuilt]\nurl = \"https://e/{version}.whl\"\n";
  return S;
}

std::vector<Diagnostic> consistencyErrors(const Manifest &M,
                                          const KnowledgeBase &KB) {
  llvm::Error E = checkConsistency(M, KB);
  return diagnosticsOf(llvm::Expected<Manifest>(std::move(E)));
}

TEST(Consistency, KnowledgeBaseTorchRows) {
  KnowledgeBase KB = testKB();
  const TorchRow *R = KB.torchRow(Version({2, 4, 1}));
  ASSERT_NE(R, nullptr);
  EXPECT_EQ(R->cudaMajors(), (std::vector<uint64_t>{11, 12}));
  EXPECT_TRUE(R->hasCudaMajor(12));
  EXPECT_FALSE(R->hasCudaMajor(13));
  EXPECT_EQ(KB.torchRow(Version({2, 5})), nullptr);
}

TEST(Consistency, DuplicateTorchRowIsAnError) {
  KnowledgeBase KB;
  llvm::Error E = KB.addFile("[[torch]]\ntorch = \"2.4\"\ncuda = [\"12.4\"]\n"
                             "source = \"a\"\n[[torch]]\ntorch = \"2.4\"\n"
                             "cuda = [\"12.1\"]\nsource = \"b\"\n",
                             "t.toml");
  ASSERT_TRUE(bool(E));
  EXPECT_THAT(llvm::toString(std::move(E)),
              HasSubstr("t.toml:6:9: error: torch 2.4 is already defined"));
}

TEST(Consistency, CleanManifestPasses) {
  Manifest M = parseOk(pkg(">=11.8", "\"sm_53\", \"sm_100\"",
                           "\"2.4\", \"2.9\"", "\"12\", \"13\""));
  llvm::Error E = checkConsistency(M, testKB());
  EXPECT_FALSE(bool(E)) << llvm::toString(std::move(E));
}

TEST(Consistency, ArchNoAcceptedNvccCompilesIsLocated) {
  // sm_53 ends with 12.x; the release wants nvcc >= 13.0.
  Manifest M = parseOk(pkg(">=13.0", "\"sm_80\", \"sm_53\"", "", ""));
  std::vector<Diagnostic> D = consistencyErrors(M, testKB());
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(where(D[0]), "10:19: release 1.0 lists arch 'sm_53' but no nvcc "
                         "it accepts ('>=13.0') can compile it");
  EXPECT_THAT(D[0].Hint, HasSubstr("'>=11.8,<13'"));
}

TEST(Consistency, ArchOnlyPastKnownToolkitsIsAnError) {
  // sm_120 is in no row at all.
  Manifest M = parseOk(pkg(">=11.8", "\"sm_120\"", "", ""));
  std::vector<Diagnostic> D = consistencyErrors(M, testKB());
  ASSERT_EQ(D.size(), 1u);
  EXPECT_THAT(D[0].Hint, HasSubstr("no toolkit in the knowledge base"));
}

TEST(Consistency, TorchWithoutAnyMatrixCudaNamesThePair) {
  Manifest M = parseOk(pkg(">=11.8", "", "\"2.9\", \"2.4\"", "\"13\""));
  std::vector<Diagnostic> D = consistencyErrors(M, testKB());
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(D[0].Loc.Line, 11u);
  EXPECT_EQ(D[0].Loc.Column, 17u);
  EXPECT_THAT(D[0].Message, HasSubstr("torch 2.4 with CUDA 13 cannot exist"));
}

TEST(Consistency, CudaWithoutAnyMatrixTorchIsAnError) {
  Manifest M = parseOk(pkg(">=11.8", "", "\"2.9\"", "12, 11"));
  std::vector<Diagnostic> D = consistencyErrors(M, testKB());
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(where(D[0]).substr(0, 6), "12:13:");
  EXPECT_THAT(D[0].Message, HasSubstr("CUDA 11 with torch 2.9 cannot exist"));
}

TEST(Consistency, PartlyImpossibleMatrixIsFine) {
  // torch 2.4 + CUDA 13 and torch 2.9 + CUDA 11 cannot exist, but each value
  // has a partner: CI excludes such pairs; `cudadeps matrix` drops them.
  Manifest M = parseOk(pkg(">=11.8", "", "\"2.4\", \"2.9\"", "11, 13"));
  llvm::Error E = checkConsistency(M, testKB());
  EXPECT_FALSE(bool(E)) << llvm::toString(std::move(E));
}

/// The warnings other than "release X lists no archs".
/// The warnings besides those about what a release does not say (archs,
/// source), which the small manifests here leave out.
std::vector<Diagnostic> besidesMissingArchs(std::vector<Diagnostic> W) {
  llvm::erase_if(W, [](const Diagnostic &D) {
    return llvm::StringRef(D.Message).contains(" lists no archs: ") ||
           llvm::StringRef(D.Message).endswith(" cites no source");
  });
  return W;
}

TEST(Consistency, ReleaseWithoutArchsWarns) {
  Manifest M = parseOk(pkg(">=11.8", "", "\"2.9\"", "12"));
  std::vector<Diagnostic> W;
  llvm::Error E = checkConsistency(M, testKB(), &W);
  EXPECT_FALSE(bool(E)) << llvm::toString(std::move(E));
  ASSERT_FALSE(W.empty());
  EXPECT_EQ(W[0].Level, Severity::Warning);
  EXPECT_THAT(W[0].Message, HasSubstr("lists no archs: resolve assumes it "
                                      "compiles the targets"));
}

TEST(Consistency, ReleaseWithoutSourceWarns) {
  Manifest M = parseOk(pkg(">=11.8", "\"sm_80\"", "", ""));
  std::vector<Diagnostic> W;
  llvm::Error E = checkConsistency(M, testKB(), &W);
  EXPECT_FALSE(bool(E)) << llvm::toString(std::move(E));
  ASSERT_EQ(W.size(), 1u);
  EXPECT_EQ(W[0].Level, Severity::Warning);
  EXPECT_EQ(where(W[0]), "9:11: release 1.0 cites no source");
  // With one, nothing is said.
  W.clear();
  std::string Cited = pkg(">=11.8", "\"sm_80\"", "", "");
  Cited.insert(Cited.find("archs = "), "source = \"setup.py at tag v1.0\"\n");
  E = checkConsistency(parseOk(Cited), testKB(), &W);
  EXPECT_FALSE(bool(E)) << llvm::toString(std::move(E));
  EXPECT_TRUE(W.empty());
}

TEST(Consistency, UnknownTorchWarnsAndSkipsCudaCheck) {
  Manifest M = parseOk(pkg(">=11.8", "", "\"2.12\"", "\"14\""));
  std::vector<Diagnostic> W;
  llvm::Error E = checkConsistency(M, testKB(), &W);
  EXPECT_FALSE(bool(E)) << llvm::toString(std::move(E));
  W = besidesMissingArchs(std::move(W));
  ASSERT_EQ(W.size(), 1u);
  EXPECT_EQ(W[0].Level, Severity::Warning);
  EXPECT_THAT(W[0].Message, HasSubstr("torch 2.12 is not in the knowledge"));
}

TEST(Consistency, ShippedManifestsAreConsistent) {
  llvm::Expected<KnowledgeBase> KB =
      KnowledgeBase::loadDirectory(CUDADEPS_SOURCE_DIR "/manifests/cuda");
  ASSERT_TRUE(bool(KB)) << llvm::toString(KB.takeError());
  EXPECT_GE(KB->torchRows().size(), 8u);
  for (const char *Name : {"causal-conv1d", "flash-attn", "mamba-ssm",
                           "fla-core", "flash-linear-attention"}) {
    SCOPED_TRACE(Name);
    llvm::Expected<Manifest> M = loadManifest(
        std::string(CUDADEPS_SOURCE_DIR "/manifests/") + Name + ".toml");
    ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
    std::vector<Diagnostic> W;
    llvm::Error E = checkConsistency(*M, *KB, &W);
    EXPECT_FALSE(bool(E)) << llvm::toString(std::move(E));
    EXPECT_TRUE(W.empty()) << W.front().Message;
    // Every release cites where it was read: its tag or its PyPI files.
    for (const Release &R : M->Pkg->Releases) {
      ASSERT_TRUE(R.Source) << R.VersionText;
      llvm::StringRef Src(R.Source->Value);
      EXPECT_TRUE(Src.contains("at tag v") || Src.contains("PyPI"))
          << R.VersionText << ": " << Src.str();
    }
  }
}

} // namespace
