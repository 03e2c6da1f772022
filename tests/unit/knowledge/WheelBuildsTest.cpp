//===- WheelBuildsTest.cpp - toolkits.toml against every published build --===//
//
// tests/fixtures/toolkit-builds holds, for every CUDA toolkit build NVIDIA
// has published on PyPI (nvidia-cuda-nvcc-cu11 11.7.99 .. nvidia-cuda-nvcc
// 13.5.37, read on 2026-12-01), verbatim copies of the lines that decide a
// knowledge-base row: the compiler checks of crt/host_config.h, the
// --gpu-name values of `ptxas --help`, and for CUDA 13 `nvcc --version` and
// `nvcc --list-gpu-code`. Each file names the wheel (and its sha256) it was
// copied from. Every one must agree with the shipped row for its build, so a
// changed max_gcc, max_clang or arch list in toolkits.toml that the wheels
// contradict fails here, without a toolkit or network.
//
//===----------------------------------------------------------------------===//

#include "tests/unit/knowledge/ToolkitEvidence.h"

#include "tests/unit/knowledge/FixtureFiles.h"

#include "core/manifest/KnowledgeBase.h"
#include "tests/unit/version/Printers.h"

#include "llvm/ADT/STLExtras.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace cudadeps;

namespace {

std::vector<ToolkitEvidence> loadBuilds() {
  std::vector<ToolkitEvidence> Out;
  for (const std::string &P : fixtureTextFiles("toolkit-builds")) {
    llvm::Expected<ToolkitEvidence> E = readEvidenceFile(P);
    if (!E) {
      ADD_FAILURE() << llvm::toString(E.takeError());
      continue;
    }
    Out.push_back(std::move(*E));
  }
  return Out;
}

KnowledgeBase shipped() {
  llvm::Expected<KnowledgeBase> KB =
      KnowledgeBase::loadDirectory(CUDADEPS_SOURCE_DIR "/manifests/cuda");
  if (!KB) {
    ADD_FAILURE() << llvm::toString(KB.takeError());
    return KnowledgeBase();
  }
  return std::move(*KB);
}

TEST(WheelBuilds, EveryPublishedBuildAgreesWithItsRow) {
  KnowledgeBase KB = shipped();
  std::vector<ToolkitEvidence> Builds = loadBuilds();
  // 2 cu11 + 22 cu12 + 12 cu13 builds were on PyPI on 2026-12-01.
  ASSERT_EQ(Builds.size(), 36u);
  for (const ToolkitEvidence &E : Builds) {
    EXPECT_TRUE(E.HostConfig.has_value()) << E.Origin;
    EXPECT_TRUE(E.GpuNames.has_value()) << E.Origin;
    if (E.Nvcc && E.Nvcc->major() >= 13) {
      EXPECT_TRUE(E.GpuCode.has_value()) << E.Origin;
    }
    expectRowMatches(KB, E);
  }
}

TEST(WheelBuilds, EveryRowFrom11_7OnHasABuild) {
  KnowledgeBase KB = shipped();
  std::vector<ToolkitEvidence> Builds = loadBuilds();
  Version From(std::vector<uint64_t>{11, 7});
  for (const ToolkitRow &Row : KB.toolkits()) {
    if (!Row.Range.intervals().front().Lower.Value ||
        *Row.Range.intervals().front().Lower.Value < From)
      continue;
    bool Covered = llvm::any_of(Builds, [&](const ToolkitEvidence &E) {
      return E.Nvcc && Row.Range.contains(*E.Nvcc);
    });
    EXPECT_TRUE(Covered) << "no published build in row '" << Row.RangeText
                         << "'";
    EXPECT_NE(Row.Source.find("=="), std::string::npos)
        << "row '" << Row.RangeText << "' does not cite the wheel it was "
        << "read from";
  }
}

TEST(WheelBuilds, ParsesPtxasGpuNames) {
  std::vector<std::string> Names = parsePtxasGpuNames(
      "--gpu-name <gpu name>   (-arch)\n"
      "        Allowed values for this option:  'compute_100','compute_90a',\n"
      "        'lto_90','sm_100','sm_100a','sm_100f','sm_90',\n"
      "        'sm_90a'.\n"
      "        Default value:  'sm_52'.\n"
      "--help  (-h)\n");
  EXPECT_EQ(Names, (std::vector<std::string>{"sm_100", "sm_100a", "sm_100f",
                                             "sm_90", "sm_90a"}));
  EXPECT_TRUE(parsePtxasGpuNames("no such option").empty());
  EXPECT_EQ(
      parseToolVersion("ptxas: NVIDIA (R) Ptx optimizing assembler\n"
                       "Cuda compilation tools, release 12.2, V12.2.91\n"),
      Version(std::vector<uint64_t>{12, 2, 91}));
  EXPECT_EQ(parseToolVersion("garbage"), std::nullopt);
}

} // namespace
