#include "core/inspect/Fatbin.h"

#include "tests/support/SharedObjects.h"

#include <gtest/gtest.h>

using namespace cudadeps;
using namespace cudadeps::test;

namespace {

std::vector<FatbinEntry> parseOk(llvm::StringRef Bytes) {
  llvm::Expected<std::vector<FatbinEntry>> E = parseFatbin(Bytes);
  if (!E) {
    ADD_FAILURE() << llvm::toString(E.takeError());
    return {};
  }
  return std::move(*E);
}

std::string parseError(llvm::StringRef Bytes) {
  llvm::Expected<std::vector<FatbinEntry>> E = parseFatbin(Bytes);
  if (E)
    return "parsed";
  return llvm::toString(E.takeError());
}

TEST(FatbinTest, ReadsKindsArchsVariantsAndPtxIsa) {
  std::string Bytes = fatbinBytes({{false, 80},
                                   {true, 80},
                                   {false, 90, 0x100011},
                                   {false, 100, 0x200011},
                                   {true, 120, 0x8011}});
  std::vector<FatbinEntry> E = parseOk(Bytes);
  ASSERT_EQ(E.size(), 5u);
  EXPECT_EQ(E[0].name(), "sm_80");
  EXPECT_EQ(E[1].name(), "compute_80");
  EXPECT_EQ(E[1].PtxIsa, "9.0");
  EXPECT_EQ(E[2].name(), "sm_90a");
  EXPECT_EQ(E[3].name(), "sm_100f");
  EXPECT_EQ(E[4].name(), "compute_120");
  EXPECT_TRUE(E[4].Compressed);
  EXPECT_FALSE(E[0].Compressed);
  EXPECT_EQ(entryNames(E, FatbinEntry::Kind::Cubin),
            (std::vector<std::string>{"sm_80", "sm_90a", "sm_100f"}));
  EXPECT_EQ(entryNames(E, FatbinEntry::Kind::Ptx),
            (std::vector<std::string>{"compute_80", "compute_120"}));
}

TEST(FatbinTest, SeveralFatbinariesWithPaddingAndToolkitNote) {
  std::string Note = "xx Cuda compilation tools, release 12.8, V12.8.93 yy";
  std::string Bytes = fatbinBytes({{false, 86, 0x11, Note}});
  Bytes.append(8, '\0');
  Bytes += fatbinBytes({{false, 90}});
  std::vector<FatbinEntry> E = parseOk(Bytes);
  ASSERT_EQ(E.size(), 2u);
  EXPECT_EQ(E[0].ToolkitRelease, "12.8");
  EXPECT_EQ(E[1].ToolkitRelease, "");
}

TEST(FatbinTest, MalformedInputIsAnErrorNotACrash) {
  std::string Good = fatbinBytes({{false, 90}});
  EXPECT_NE(
      parseError("junk that is not a fatbinary").find("no fatbinary magic"),
      std::string::npos);
  // Truncated anywhere: never reads past the end.
  for (size_t N = 1; N < Good.size(); ++N) {
    std::string Cut = Good.substr(0, N);
    EXPECT_NE(parseError(Cut).find("malformed fatbinary"), std::string::npos)
        << "cut at " << N;
  }
  // An entry that claims more than its fatbinary holds.
  std::string Huge = Good;
  Huge[16 + 8] = char(0xff);
  Huge[16 + 15] = char(0x7f);
  EXPECT_NE(parseError(Huge).find("past the end"), std::string::npos);
  // An entry header size of zero would loop forever.
  std::string Zero = Good;
  for (int I = 0; I < 4; ++I)
    Zero[16 + 4 + I] = 0;
  EXPECT_NE(parseError(Zero).find("malformed"), std::string::npos);
  EXPECT_TRUE(parseOk(std::string(24, '\0')).empty());
}

TEST(FatbinTest, BinaryCompatibilityRules) {
  std::vector<FatbinEntry> E = parseOk(fatbinBytes({{false, 80}, {false, 90}}));
  EXPECT_EQ(fitForGpu(E, 86).Fit, GpuFit::Native); // sm_80 runs on 8.6
  EXPECT_EQ(fitForGpu(E, 86).By->Arch, 80u);
  EXPECT_EQ(fitForGpu(E, 90).By->Arch, 90u);
  EXPECT_EQ(fitForGpu(E, 120).Fit, GpuFit::None); // another major
  EXPECT_EQ(fitForGpu(E, 75).Fit, GpuFit::None);  // older than any

  std::vector<FatbinEntry> A = parseOk(fatbinBytes({{false, 90, 0x100011}}));
  EXPECT_EQ(fitForGpu(A, 90).Fit, GpuFit::Native);
  std::vector<FatbinEntry> A100 =
      parseOk(fatbinBytes({{false, 100, 0x100011}}));
  EXPECT_EQ(fitForGpu(A100, 103).Fit, GpuFit::None); // sm_100a: only 10.0
  std::vector<FatbinEntry> F = parseOk(fatbinBytes({{false, 100, 0x200011}}));
  EXPECT_EQ(fitForGpu(F, 103).Fit, GpuFit::Native); // sm_100f: 10.0 and 10.3

  // PTX JIT-compiles for newer GPUs, never for older ones.
  std::vector<FatbinEntry> P = parseOk(fatbinBytes({{false, 80}, {true, 90}}));
  EXPECT_EQ(fitForGpu(P, 120).Fit, GpuFit::Jit);
  EXPECT_EQ(fitForGpu(P, 120).By->name(), "compute_90");
  EXPECT_EQ(fitForGpu(P, 89).Fit, GpuFit::Native);
  std::vector<FatbinEntry> PA = parseOk(fatbinBytes({{true, 90, 0x100011}}));
  EXPECT_EQ(fitForGpu(PA, 100).Fit, GpuFit::None); // compute_90a: only 9.0
  std::vector<FatbinEntry> PF = parseOk(fatbinBytes({{true, 100, 0x200011}}));
  EXPECT_EQ(fitForGpu(PF, 103).Fit, GpuFit::Jit);
  EXPECT_EQ(fitForGpu(PF, 120).Fit, GpuFit::None);
}

} // namespace
