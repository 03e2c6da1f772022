//===- ProvisioningDataTest.cpp - manifests/cuda/provisioning.toml ---------===//
#include "core/manifest/KnowledgeBase.h"
#include "core/toolkit/ToolkitInstaller.h"

#include "llvm/Support/FileSystem.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace cudadeps;
using namespace llvm;
using ::testing::HasSubstr;

namespace {

KnowledgeBase shipped() {
  Expected<KnowledgeBase> KB =
      KnowledgeBase::loadDirectory(CUDADEPS_SOURCE_DIR "/manifests/cuda");
  EXPECT_TRUE(bool(KB)) << toString(KB.takeError());
  return KB ? std::move(*KB) : KnowledgeBase();
}

// Every row names all five wheels; nvcc, crt and nvvm carry the toolkit's
// version; each build is one whose wheels were read for toolkits.toml.
TEST(ProvisioningData, EveryRowIsACompleteSetOfAKnownBuild) {
  KnowledgeBase KB = shipped();
  ASSERT_EQ(KB.provisions().size(), 12u);
  for (const ProvisionRow &Row : KB.provisions()) {
    SCOPED_TRACE(Row.Cuda.str());
    for (StringRef C : toolkitWheelComponents())
      ASSERT_NE(Row.component(C), nullptr) << C.str();
    for (StringRef C : {"nvidia-cuda-nvcc", "nvidia-cuda-crt", "nvidia-nvvm"})
      EXPECT_EQ(*Row.component(C), Row.Cuda);
    EXPECT_EQ(Row.component("nvidia-cuda-runtime")->major(), Row.Cuda.major());
    EXPECT_TRUE(Row.DownloadMiB && Row.InstalledMiB);
    EXPECT_LT(*Row.DownloadMiB, *Row.InstalledMiB);
    EXPECT_NE(KB.toolkit(Row.Cuda), nullptr);
    EXPECT_TRUE(sys::fs::exists(CUDADEPS_FIXTURES_DIR "/toolkit-builds/cuda-" +
                                Row.Cuda.str() + ".txt"));
  }
}

TEST(ProvisioningData, VersionsFindTheNewestBuild) {
  KnowledgeBase KB = shipped();
  ASSERT_NE(KB.provision(Version({13, 0})), nullptr);
  EXPECT_EQ(KB.provision(Version({13, 0}))->Cuda.str(), "13.0.88");
  EXPECT_EQ(KB.provision(Version({13, 0, 48}))->Cuda.str(), "13.0.48");
  EXPECT_EQ(KB.provision(Version({13}))->Cuda.str(), "13.5.37");
  EXPECT_EQ(KB.provision(Version({12, 8})), nullptr);
  EXPECT_EQ(KB.provision(Version({13, 0, 1})), nullptr);
  ASSERT_NE(KB.noProvision(12), nullptr);
  EXPECT_THAT(KB.noProvision(12)->Reason, HasSubstr("no nvcc"));
  EXPECT_EQ(KB.noProvision(13), nullptr);
}

TEST(ProvisioningData, BadRowsAreLocatedErrors) {
  KnowledgeBase KB;
  Error E = KB.addFile("[[provision]]\ncuda = \"13.0.88\"\n"
                       "components = { \"nvidia-cuda-crt\" = \"13.0.88\" }\n"
                       "download_mib = \"lots\"\n",
                       "p.toml");
  std::string Msg = toString(std::move(E));
  EXPECT_THAT(Msg, HasSubstr("p.toml:3:"));
  EXPECT_THAT(Msg, HasSubstr("no nvidia-cuda-nvcc"));
  EXPECT_THAT(Msg, HasSubstr("p.toml:4:"));
  EXPECT_THAT(Msg, HasSubstr("no 'source'"));
  Error E2 = KB.addFile("[[no_provision]]\ncuda_major = 12\nsource = \"x\"\n",
                        "q.toml");
  EXPECT_THAT(toString(std::move(E2)), HasSubstr("no 'reason'"));
}

} // namespace
