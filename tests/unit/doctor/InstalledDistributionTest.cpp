#include "core/doctor/InstalledDistribution.h"

#include "tests/support/FakeToolkit.h"

#include <gtest/gtest.h>

using namespace cudadeps;
using namespace cudadeps::test;

namespace {

InstalledDistribution readOk(llvm::StringRef Dir) {
  llvm::Expected<InstalledDistribution> D = readInstalledDistribution(Dir);
  if (!D) {
    ADD_FAILURE() << llvm::toString(D.takeError());
    return {};
  }
  return std::move(*D);
}

TEST(InstalledDistributionTest, RecordWithQuotedPathsAndWheelUrl) {
  TempDir Dir("cudadeps-dist");
  ASSERT_TRUE(Dir.ok());
  std::string Site = Dir.sub("site");
  std::string DI = Site + "/flash_attn-2.8.3.dist-info";
  ASSERT_TRUE(writeFile(
      Site + "/flash_attn_2_cuda.cpython-312-x86_64-linux-gnu.so", "x"));
  ASSERT_TRUE(writeFile(Site + "/flash_attn/a,b.so", "x"));
  ASSERT_TRUE(writeFile(Site + "/flash_attn/__init__.py", ""));
  ASSERT_TRUE(
      writeFile(DI + "/RECORD",
                "flash_attn_2_cuda.cpython-312-x86_64-linux-gnu.so,sha256=a,1\n"
                "\"flash_attn/a,b.so\",sha256=b,1\r\n"
                "flash_attn/__init__.py,,\n"
                "flash_attn/gone.so,,\n"
                "../../escape.so,,\n"));
  ASSERT_TRUE(writeFile(DI + "/METADATA", "Name: flash_attn\nVersion: 2.8.3\n"
                                          "Requires-Dist: torch\n\nbody\n"));
  ASSERT_TRUE(writeFile(
      DI + "/direct_url.json",
      R"({"url": "https://github.com/x/releases/download/v2.8.3/flash_attn-2.8.3%2Bcu12torch2.8cxx11abiTRUE-cp312-cp312-linux_x86_64.whl", "archive_info": {}})"));
  InstalledDistribution D = readOk(DI);
  EXPECT_EQ(D.Site, Site);
  ASSERT_TRUE(D.Ver);
  EXPECT_EQ(D.Ver->str(), "2.8.3");
  EXPECT_EQ(D.FilesFrom, "RECORD");
  EXPECT_EQ(D.SharedObjects,
            (std::vector<std::string>{
                Site + "/flash_attn_2_cuda.cpython-312-x86_64-linux-gnu.so",
                Site + "/flash_attn/a,b.so"}));
  EXPECT_EQ(D.Tag.Torch->str(), "2.8");
  EXPECT_EQ(D.Tag.CudaMajor, 12u);
  EXPECT_NE(D.TagFrom.find("the wheel it was installed from"),
            std::string::npos);
  ASSERT_TRUE(D.TorchRequirement);
  EXPECT_EQ(*D.TorchRequirement, ""); // any torch
}

TEST(InstalledDistributionTest, EggInfoAndEditableInstalls) {
  TempDir Dir("cudadeps-dist");
  ASSERT_TRUE(Dir.ok());
  std::string Site = Dir.sub("site");
  std::string Egg = Site + "/causal_conv1d-1.5.0-py3.12.egg-info";
  ASSERT_TRUE(writeFile(Site + "/causal_conv1d_cuda.so", "x"));
  ASSERT_TRUE(
      writeFile(Egg + "/installed-files.txt",
                "../causal_conv1d_cuda.so\n../causal_conv1d/__init__.py\n"));
  InstalledDistribution E = readOk(Egg);
  EXPECT_EQ(E.Ver->str(), "1.5.0");
  EXPECT_EQ(E.SharedObjects,
            std::vector<std::string>{Site + "/causal_conv1d_cuda.so"});

  std::string Src = Dir.sub("src");
  ASSERT_TRUE(writeFile(Src + "/pkg/_C.so", "x"));
  ASSERT_TRUE(writeFile(Src + "/build/lib/pkg/_C.so", "x")); // skipped
  std::string DI = Site + "/pkg-0.1+cu128.dist-info";
  ASSERT_TRUE(writeFile(DI + "/direct_url.json",
                        "{\"url\": \"file://" + Src +
                            "\", \"dir_info\": {\"editable\": true}}"));
  InstalledDistribution Ed = readOk(DI);
  EXPECT_TRUE(Ed.Editable);
  EXPECT_EQ(Ed.SharedObjects, std::vector<std::string>{Src + "/pkg/_C.so"});
  EXPECT_EQ(Ed.Tag.Cuda->str(), "12.8");
  EXPECT_FALSE(Ed.Tag.Torch);

  llvm::Expected<InstalledDistribution> None =
      readInstalledDistribution(Dir.sub("nothing.dist-info"));
  ASSERT_FALSE(None);
  llvm::consumeError(None.takeError());
}

} // namespace
