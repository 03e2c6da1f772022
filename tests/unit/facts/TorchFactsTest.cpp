//===- TorchFactsTest.cpp - [torch] of a facts file: CUDA and C++ ABI -----===//

#include "core/facts/FactsFile.h"

#include "llvm/Support/Error.h"

#include <gtest/gtest.h>

using namespace cudadeps;

namespace {

TorchFacts torchOf(llvm::StringRef Body) {
  llvm::Expected<Facts> F = parseFactsToml(("[torch]\n" + Body).str(), "f.toml");
  if (!F) {
    ADD_FAILURE() << llvm::toString(F.takeError());
    return {};
  }
  if (!F->Torch) {
    ADD_FAILURE() << "no torch in " << Body.str();
    return {};
  }
  return *F->Torch;
}

} // namespace

TEST(TorchFacts, CudaComesFromTheLocalLabelWithoutACudaKey) {
  TorchFacts Cu128 = torchOf("version = \"2.11.0+cu128\"\n");
  ASSERT_TRUE(Cu128.Cuda.has_value());
  EXPECT_EQ(Cu128.Cuda->str(), "12.8");
  EXPECT_FALSE(Cu128.CudaUnknown);
  TorchFacts Cu130 = torchOf("version = \"2.11.0+cu130\"\n");
  ASSERT_TRUE(Cu130.Cuda.has_value());
  EXPECT_EQ(Cu130.Cuda->str(), "13.0");
  // An explicit key wins over the label.
  EXPECT_EQ(torchOf("version = \"2.11.0+cu128\"\ncuda = \"12.9\"\n").Cuda->str(),
            "12.9");
}

TEST(TorchFacts, CpuOnlyWhenSaidOtherwiseUnknown) {
  TorchFacts Cpu = torchOf("version = \"2.11.0+cpu\"\n");
  EXPECT_FALSE(Cpu.Cuda.has_value());
  EXPECT_FALSE(Cpu.CudaUnknown);
  TorchFacts None = torchOf("version = \"2.5.1\"\ncuda = \"none\"\n");
  EXPECT_FALSE(None.Cuda.has_value());
  EXPECT_FALSE(None.CudaUnknown);
  TorchFacts Plain = torchOf("version = \"2.11.0\"\n");
  EXPECT_FALSE(Plain.Cuda.has_value());
  EXPECT_TRUE(Plain.CudaUnknown);
  TorchFacts Rocm = torchOf("version = \"2.11.0+rocm6.4\"\n");
  EXPECT_TRUE(Rocm.CudaUnknown);
}

TEST(TorchFacts, WrittenFactsReadBackTheSame) {
  for (const char *Body :
       {"version = \"2.5.1\"\ncuda = \"none\"\ncxx11_abi = false\n",
        "version = \"2.11.0\"\n", "version = \"2.11.0+cu130\"\ncxx11_abi = true\n"}) {
    Facts F;
    F.Torch = torchOf(Body);
    std::string Text = writeFactsToml(F);
    llvm::Expected<Facts> Back = parseFactsToml(Text, "back.toml");
    ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError()) << Text;
    ASSERT_TRUE(Back->Torch.has_value()) << Text;
    EXPECT_EQ(Back->Torch->Cuda, F.Torch->Cuda) << Text;
    EXPECT_EQ(Back->Torch->CudaUnknown, F.Torch->CudaUnknown) << Text;
    EXPECT_EQ(Back->Torch->Cxx11Abi, F.Torch->Cxx11Abi) << Text;
    llvm::Expected<Facts> Json = factsFromJson(factsToJson(F), "j");
    ASSERT_TRUE(bool(Json)) << llvm::toString(Json.takeError());
    EXPECT_EQ(Json->Torch, F.Torch) << Text;
  }
}

TEST(TorchFacts, AbiSourceIsTheKey) {
  TorchFacts T = torchOf("version = \"2.11.0+cu128\"\n\ncxx11_abi = true\n");
  EXPECT_EQ(T.AbiFrom, Source::declared("f.toml", "f.toml:4"));
}
