// computeBuildMatrix: the combinations of a [release.prebuilt] matrix that
// can exist, each with its nvcc and host gcc.
#include "core/manifest/ManifestLoader.h"
#include "core/plan/BuildMatrix.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace cudadeps;
using ::testing::HasSubstr;

namespace {

const char *KBText = R"(
[[toolkit]]
cuda = ">=11.8,<12"
max_gcc = 11
source = "test"
[[toolkit]]
cuda = ">=12.8,<12.9"
max_gcc = 14
source = "test"
[[toolkit]]
cuda = ">=12.9,<13"
max_gcc = 14
source = "test"
[[toolkit]]
cuda = ">=13.0,<13.1"
max_gcc = 15
source = "test"
[[torch]]
torch = "2.6"
cuda = ["11.8", "12.4", "12.6"]
python = ">=3.9,<3.14"
source = "test"
[[torch]]
torch = "2.9"
cuda = ["12.6", "12.8", "13.0"]
python = ">=3.10,<3.15"
source = "test"
)";

KnowledgeBase testKB() {
  KnowledgeBase KB;
  llvm::Error E = KB.addFile(KBText, "kb.toml");
  EXPECT_FALSE(bool(E)) << llvm::toString(std::move(E));
  return KB;
}

const char *Pkg = R"(schema = 1
[package]
name = "p"
git = "https://e/p.git"
build = "torch-extension"
[requires]
nvcc = ">=11.6"
[[release]]
version = "2.0"
[[release]]
version = "1.1"
[release.prebuilt]
torch = ["2.6", "2.9", "2.12"]
cuda = ["11", "12", "13"]
python = ["cp39", "cp312"]
cxx11_abi = [true]
platform = ["linux_x86_64", "linux_aarch64"]
[[release]]
version = "1.0"
[release.prebuilt]
torch = ["2.9"]
cuda = ["13"]
[release.requires]
nvcc = ">=13.1"
[prebuilt]
url = "https://e/{version}.whl"
)";

Manifest load(llvm::StringRef Text) {
  llvm::Expected<Manifest> M = parseManifest(Text, "m.toml");
  if (!M) {
    ADD_FAILURE() << llvm::toString(M.takeError());
    return Manifest();
  }
  return std::move(*M);
}

std::vector<std::string> keys(const BuildMatrix &BM) {
  std::vector<std::string> Out;
  for (const MatrixRow &R : BM.Rows)
    Out.push_back(R.Torch.str() + "/cu" + std::to_string(R.CudaMajor) + "/" +
                  R.PythonTag + "/" + R.Platform + "/" + R.Nvcc.str() +
                  "/gcc" + (R.Gcc ? std::to_string(*R.Gcc) : "-"));
  return Out;
}

TEST(BuildMatrix, PythonOfWheelTag) {
  EXPECT_EQ(pythonOfWheelTag("cp312"), Version({3, 12}));
  EXPECT_EQ(pythonOfWheelTag("cp39"), Version({3, 9}));
  EXPECT_EQ(pythonOfWheelTag("py3"), std::nullopt);
  EXPECT_EQ(pythonOfWheelTag("cp3x"), std::nullopt);
}

TEST(BuildMatrix, NewestNvccOfMajor) {
  KnowledgeBase KB = testKB();
  EXPECT_EQ(newestNvccOfMajor(KB, 12, VersionSet::any()), Version({12, 9}));
  EXPECT_EQ(newestNvccOfMajor(KB, 11, VersionSet::any()), Version({11, 8}));
  EXPECT_EQ(newestNvccOfMajor(KB, 12, *VersionSet::parse("<12.9")),
            Version({12, 8}));
  EXPECT_EQ(newestNvccOfMajor(KB, 11, *VersionSet::parse(">=12")),
            std::nullopt);
  EXPECT_EQ(newestNvccOfMajor(KB, 14, VersionSet::any()), std::nullopt);
}

TEST(BuildMatrix, NewestReleaseWithAMatrixKeepsOnlyPossibleRows) {
  Manifest M = load(Pkg);
  llvm::Expected<BuildMatrix> BM = computeBuildMatrix(M, testKB());
  ASSERT_TRUE(bool(BM)) << llvm::toString(BM.takeError());
  EXPECT_EQ(BM->ReleaseText, "1.1"); // 2.0 has no matrix
  std::vector<std::string> K = keys(*BM);
  // torch 2.6: CUDA 11 and 12, cp39 and cp312; no CUDA 13.
  EXPECT_THAT(K, ::testing::Contains("2.6/cu11/cp39/linux_x86_64/11.8/gcc11"));
  EXPECT_THAT(K, ::testing::Contains("2.6/cu12/cp312/linux_aarch64/12.9/gcc14"));
  EXPECT_THAT(K, ::testing::Not(::testing::Contains(
                     "2.6/cu13/cp312/linux_x86_64/13.0/gcc15")));
  // torch 2.9: CUDA 12 and 13, python >= 3.10 only.
  EXPECT_THAT(K, ::testing::Contains("2.9/cu13/cp312/linux_x86_64/13.0/gcc15"));
  EXPECT_THAT(K, ::testing::Not(::testing::Contains(
                     "2.9/cu12/cp39/linux_x86_64/12.9/gcc14")));
  EXPECT_THAT(K, ::testing::Not(::testing::Contains(
                     "2.9/cu11/cp312/linux_x86_64/11.8/gcc11")));
  // torch 2.12 is not in the table: kept, marked unchecked.
  EXPECT_THAT(K, ::testing::Contains("2.12/cu11/cp39/linux_x86_64/11.8/gcc11"));
  // 2.6: 2 cuda x 2 py x 2 platforms; 2.9: 2 cuda x 1 py x 2; 2.12: 3x2x2.
  EXPECT_EQ(K.size(), 8u + 4u + 12u);
  for (const MatrixRow &R : BM->Rows) {
    EXPECT_EQ(R.TorchKnown, R.Torch != Version({2, 12}));
    ASSERT_TRUE(R.Cxx11Abi.has_value());
    EXPECT_TRUE(*R.Cxx11Abi);
  }
  EXPECT_FALSE(BM->Dropped.empty());
}

TEST(BuildMatrix, ReleaseOptionAndNvccRequirement) {
  Manifest M = load(Pkg);
  // 1.0 wants nvcc >= 13.1, which the knowledge base does not know: no row.
  llvm::Expected<BuildMatrix> BM =
      computeBuildMatrix(M, testKB(), Version({1, 0}));
  ASSERT_TRUE(bool(BM)) << llvm::toString(BM.takeError());
  EXPECT_TRUE(BM->Rows.empty());
  ASSERT_EQ(BM->Dropped.size(), 1u);
  EXPECT_THAT(BM->Dropped[0].Reason, HasSubstr("nvcc requirement"));
}

TEST(BuildMatrix, ErrorsWithoutAMatrix) {
  Manifest M = load(Pkg);
  llvm::Expected<BuildMatrix> A =
      computeBuildMatrix(M, testKB(), Version({2, 0}));
  ASSERT_FALSE(bool(A));
  EXPECT_THAT(llvm::toString(A.takeError()),
              HasSubstr("release 2.0 of 'p' declares no [release.prebuilt]"));
  llvm::Expected<BuildMatrix> B =
      computeBuildMatrix(M, testKB(), Version({3, 0}));
  ASSERT_FALSE(bool(B));
  EXPECT_THAT(llvm::toString(B.takeError()), HasSubstr("has no release 3.0"));
  Manifest N = load("schema = 1\n[package]\nname = \"q\"\nbuild = \"python\"\n"
                    "[[release]]\nversion = \"1\"\n");
  llvm::Expected<BuildMatrix> C = computeBuildMatrix(N, testKB());
  ASSERT_FALSE(bool(C));
  EXPECT_THAT(llvm::toString(C.takeError()),
              HasSubstr("no release of 'q' declares a [release.prebuilt]"));
}

} // namespace
