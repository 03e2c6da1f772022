//===- FactsTest.cpp - the fact model -------------------------------------===//

#include "FactsTestUtil.h"

#include "core/facts/Facts.h"

#include <gtest/gtest.h>

using namespace cudadeps;
using namespace cudadeps::testing;
using llvm::StringRef;

TEST(SourceTest, DescribesEachKind) {
  EXPECT_EQ(
      Source::probed("nvcc", "/usr/local/cuda/bin/nvcc --version").describe(),
      "probed by nvcc from /usr/local/cuda/bin/nvcc --version");
  EXPECT_EQ(Source::probed("nvcc", "").describe(), "probed by nvcc");
  EXPECT_EQ(Source::declared("facts.toml", "facts.toml:12").describe(),
            "declared in facts.toml:12");
  EXPECT_EQ(Source::declared("facts.toml").describe(),
            "declared in facts.toml");
  EXPECT_EQ(Source::overridden("--set torch.cuda=12.4").describe(),
            "overridden by --set torch.cuda=12.4");
}

TEST(GpuFactsTest, SmArch) {
  auto Sm = [](StringRef Cc) { return GpuFacts{"", ver(Cc), {}}.smArch(); };
  EXPECT_EQ(Sm("9.0"), "sm_90");
  EXPECT_EQ(Sm("12.0"), "sm_120");
  EXPECT_EQ(Sm("10.3"), "sm_103");
  EXPECT_EQ(Sm("8.6"), "sm_86");
  EXPECT_EQ(Sm("7.5"), "sm_75");
}

TEST(PythonFactsTest, Tag) {
  EXPECT_EQ((PythonFacts{"", ver("3.12.3"), {}}.tag()), "cp312");
  EXPECT_EQ((PythonFacts{"", ver("3.9"), {}}.tag()), "cp39");
  EXPECT_EQ((PythonFacts{"", ver("3.13.0rc1"), {}}.tag()), "cp313");
}

TEST(PlatformFactsTest, Tag) {
  PlatformFacts P;
  P.Os = "linux";
  P.Arch = "x86_64";
  EXPECT_EQ(P.tag(), "linux_x86_64");
  P.Arch = "aarch64";
  EXPECT_EQ(P.tag(), "linux_aarch64");
  P.Os = "Linux";
  P.Arch = "x86-64";
  EXPECT_EQ(P.tag(), "linux_x86_64");
}

TEST(MergeFactsTest, DriverFieldsComeFromWhoeverHasThem) {
  Facts Into, From;
  Into.Driver = DriverFacts{
      ver("570.86.15"), std::nullopt, Source::probed("driver", "/proc"), {}};
  From.Driver =
      DriverFacts{std::nullopt,
                  ver("12.8"),
                  {},
                  Source::probed("cuda-runtime", "cuDriverGetVersion")};
  mergeFacts(Into, From);
  ASSERT_TRUE(Into.Driver);
  EXPECT_EQ(*Into.Driver->KernelVersion, ver("570.86.15"));
  EXPECT_EQ(Into.Driver->KernelSource, Source::probed("driver", "/proc"));
  EXPECT_EQ(*Into.Driver->Cuda, ver("12.8"));
  EXPECT_EQ(Into.Driver->CudaSource,
            Source::probed("cuda-runtime", "cuDriverGetVersion"));
}

TEST(MergeFactsTest, ToolkitsMergeByPathAndAppend) {
  Facts Into, From;
  Into.Nvccs.push_back(
      {"/a/nvcc", ver("12.4"), {}, {}, {}, Source::probed("nvcc", "a")});
  Into.Nvccs.push_back(
      {"/b/nvcc", ver("12.6"), {}, {}, {}, Source::probed("nvcc", "b")});
  From.Nvccs.push_back({"/b/nvcc",
                        ver("12.6.85"),
                        13u,
                        {},
                        {"sm_90"},
                        Source::probed("nvcc", "b2")});
  From.Nvccs.push_back(
      {"/c/nvcc", ver("13.0"), {}, {}, {}, Source::probed("nvcc", "c")});
  mergeFacts(Into, From);
  ASSERT_EQ(Into.Nvccs.size(), 3u);
  EXPECT_EQ(Into.Nvccs[0].Path, "/a/nvcc");
  EXPECT_EQ(Into.Nvccs[1].Path, "/b/nvcc");
  EXPECT_EQ(Into.Nvccs[1].From.From, "b2");
  EXPECT_EQ(Into.Nvccs[1].MaxGcc, 13u);
  EXPECT_EQ(Into.Nvccs[2].Path, "/c/nvcc");
}

TEST(MergeFactsTest, GpusReplaceSingularFactsOverrideNothingRemoved) {
  Facts Into = richFacts();
  Facts From;
  From.Gpus.push_back({"NVIDIA A100", ver("8.0"), Source::probed("x", "y")});
  From.Packages["triton"] = {ver("3.5.0"), Source::probed("x", "y")};
  From.Packages["einops"] = {ver("0.8.1"), Source::probed("x", "y")};
  From.Torch =
      TorchFacts{.Ver = ver("2.9.0"),
                 .Cuda = std::nullopt,
                 .Cxx11Abi = false,
                 .From = Source::probed("x", "y")};
  Facts Before = Into;
  mergeFacts(Into, From);
  ASSERT_EQ(Into.Gpus.size(), 1u);
  EXPECT_EQ(Into.Gpus[0].Name, "NVIDIA A100");
  EXPECT_EQ(Into.Packages.at("triton").Ver, ver("3.5.0"));
  EXPECT_EQ(Into.Packages.at("einops").Ver, ver("0.8.1"));
  EXPECT_TRUE(Into.Packages.count("zope.interface"));
  EXPECT_EQ(Into.Torch->Ver, ver("2.9.0"));
  EXPECT_EQ(Into.Nvccs, Before.Nvccs);
  EXPECT_EQ(Into.Compilers, Before.Compilers);
  EXPECT_EQ(Into.Python, Before.Python);
  EXPECT_EQ(Into.Platform, Before.Platform);
  EXPECT_EQ(Into.Driver, Before.Driver);

  // Merging nothing changes nothing.
  Facts Same = Before;
  mergeFacts(Same, Facts{});
  EXPECT_EQ(Same, Before);
}
