//===- KnowledgeBaseTest.cpp - the shipped CUDA tables and their loader
//----===//
//
// The first half loads manifests/cuda as shipped and checks the facts the
// solver relies on (cuda-facts.md sections 1-3). The second half feeds small
// broken tables to the loader and checks each diagnostic's file:line:col,
// message and suggestion.
//
//===----------------------------------------------------------------------===//

#include "core/manifest/KnowledgeBase.h"
#include "core/support/LoadCache.h"
#include "tests/unit/version/Printers.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

using namespace cudadeps;
using llvm::Expected;
using ::testing::HasSubstr;

namespace {

Version v(llvm::StringRef Text) {
  Expected<Version> V = Version::parse(Text);
  if (!V) {
    ADD_FAILURE() << llvm::toString(V.takeError());
    return Version();
  }
  return *V;
}

VersionSet set(llvm::StringRef Spec) {
  Expected<VersionSet> S = VersionSet::parse(Spec);
  if (!S) {
    ADD_FAILURE() << llvm::toString(S.takeError());
    return VersionSet();
  }
  return *S;
}

std::string shippedDir() { return CUDADEPS_SOURCE_DIR "/manifests/cuda"; }

class ShippedTables : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    Expected<KnowledgeBase> Loaded = KnowledgeBase::loadDirectory(shippedDir());
    if (!Loaded) {
      LoadError = llvm::toString(Loaded.takeError());
      return;
    }
    KB = new KnowledgeBase(std::move(*Loaded));
  }
  static void TearDownTestSuite() {
    delete KB;
    KB = nullptr;
  }
  void SetUp() override {
    ASSERT_NE(KB, nullptr) << "manifests/cuda did not load:\n" << LoadError;
  }

  /// The range of Arch as text, for readable failures.
  static std::string rangeOf(llvm::StringRef Arch) {
    return KB->nvccRangeForArch(Arch).str();
  }

  static KnowledgeBase *KB;
  static std::string LoadError;
};

KnowledgeBase *ShippedTables::KB = nullptr;
std::string ShippedTables::LoadError;

TEST_F(ShippedTables, EveryRowCitesASource) {
  EXPECT_GE(KB->toolkits().size(), 20u);
  EXPECT_EQ(KB->driverFloors().size(), 3u);
  for (const ToolkitRow &Row : KB->toolkits()) {
    EXPECT_FALSE(Row.Source.empty()) << Row.RangeText;
    EXPECT_FALSE(Row.Archs.empty()) << Row.RangeText;
    EXPECT_TRUE(Row.MaxGcc && Row.MaxClang) << Row.RangeText;
    EXPECT_THAT(Row.Loc.File, HasSubstr("toolkits.toml"));
    EXPECT_GT(Row.Loc.Line, 0u);
  }
  for (const DriverFloorRow &Row : KB->driverFloors())
    EXPECT_FALSE(Row.Source.empty()) << Row.CudaMajor;
}

TEST_F(ShippedTables, RangesAreContiguousFrom10_2To13_5) {
  EXPECT_EQ(KB->knownRange(), set(">=10.2,<13.6"));
  // Every minor release in between has a row (12.7 was never released; the
  // 12.6 row covers it), and so has every build NVIDIA put on PyPI.
  for (const char *Nvcc :
       {"10.2.89",  "11.0.221", "11.1.105", "11.2.152", "11.3.109", "11.4.48",
        "11.4.152", "11.5.119", "11.6.124", "11.7.99",  "11.8.89",  "12.0.140",
        "12.1.105", "12.2.91",  "12.2.140", "12.3.107", "12.4.131", "12.5.82",
        "12.6.85",  "12.7.0",   "12.8.93",  "12.9.86",  "13.0.88",  "13.1.115",
        "13.2.78",  "13.3.73",  "13.4.59",  "13.4.92",  "13.5.37"})
    EXPECT_NE(KB->toolkit(v(Nvcc)), nullptr) << Nvcc;
  // Nothing past the newest build on PyPI (13.5.37 on 2026-12-01).
  EXPECT_EQ(KB->toolkit(v("13.6.0")), nullptr);
  EXPECT_EQ(KB->toolkit(v("10.1.243")), nullptr);
}

TEST_F(ShippedTables, ToolkitMatchesOnTheReleaseOnly) {
  const ToolkitRow *R = KB->toolkit(v("12.8.93"));
  ASSERT_NE(R, nullptr);
  EXPECT_TRUE(R->Range.contains(v("12.8")));
  EXPECT_EQ(KB->toolkit(v("12.8.61")), R);
  EXPECT_EQ(KB->toolkit(v("12.8")), R);
  EXPECT_EQ(KB->toolkit(v("12.8.93+local")), R);
  EXPECT_EQ(KB->toolkit(v("12.8.93.post1")), R);
  EXPECT_NE(KB->toolkit(v("12.9.86")), R);
}

TEST_F(ShippedTables, HostCompilerBounds) {
  // 12.2 GA (V12.2.91) rejects clang 16 and 12.2 Update 1 (V12.2.128)
  // accepts it; 13.4 raised both limits (`__GNUC__ > 16`,
  // `__clang_major__ >= 23`) and 13.5.37 keeps them (crt/host_config.h of
  // NVIDIA's wheels, tests/fixtures/toolkit-builds).
  struct Case {
    const char *Nvcc;
    unsigned Gcc, Clang;
  } Cases[] = {
      {"10.2.89", 8, 8},    {"11.0.221", 9, 9},   {"11.1.105", 10, 10},
      {"11.3.109", 10, 11}, {"11.4.48", 10, 11},  {"11.4.100", 11, 12},
      {"11.5.119", 11, 12}, {"11.7.99", 11, 13},  {"11.8.89", 11, 14},
      {"12.0.140", 12, 14}, {"12.1.105", 12, 15}, {"12.2.91", 12, 15},
      {"12.2.128", 12, 16}, {"12.2.140", 12, 16}, {"12.3.107", 12, 16},
      {"12.4.131", 13, 17}, {"12.6.85", 13, 18},  {"12.8.93", 14, 19},
      {"12.9.86", 14, 19},  {"13.0.88", 15, 20},  {"13.1.115", 15, 21},
      {"13.3.73", 15, 21},  {"13.4.59", 16, 22},  {"13.4.92", 16, 22},
      {"13.5.37", 16, 22},
  };
  for (const Case &C : Cases) {
    const ToolkitRow *R = KB->toolkit(v(C.Nvcc));
    ASSERT_NE(R, nullptr) << C.Nvcc;
    EXPECT_EQ(R->MaxGcc, C.Gcc) << C.Nvcc;
    EXPECT_EQ(R->MaxClang, C.Clang) << C.Nvcc;
  }
}

TEST_F(ShippedTables, ArchRangesOfTheSolverIssue) {
  EXPECT_EQ(KB->nvccRangeForArch("sm_90"), set(">=11.8")) << rangeOf("sm_90");
  EXPECT_EQ(KB->nvccRangeForArch("sm_100"), set(">=12.8")) << rangeOf("sm_100");
  EXPECT_EQ(KB->nvccRangeForArch("sm_120"), set(">=12.8")) << rangeOf("sm_120");
  EXPECT_EQ(KB->nvccRangeForArch("sm_103"), set(">=12.9")) << rangeOf("sm_103");
  EXPECT_EQ(KB->nvccRangeForArch("sm_121"), set(">=12.9")) << rangeOf("sm_121");
  EXPECT_EQ(KB->nvccRangeForArch("sm_110"), set(">=13.0")) << rangeOf("sm_110");
  EXPECT_EQ(KB->nvccRangeForArch("sm_88"), set(">=13.0")) << rangeOf("sm_88");
  EXPECT_EQ(KB->nvccRangeForArch("sm_75"), set(">=10.2")) << rangeOf("sm_75");
  EXPECT_EQ(KB->nvccRangeForArch("sm_86"), set(">=11.1")) << rangeOf("sm_86");
  EXPECT_EQ(KB->nvccRangeForArch("sm_87"), set(">=11.4")) << rangeOf("sm_87");
  // sm_107 and its a/f forms arrived in 13.4 (nvidia-cuda-nvcc 13.4.59
  // --list-gpu-code and ptxas --help).
  EXPECT_EQ(KB->nvccRangeForArch("sm_107"), set(">=13.4")) << rangeOf("sm_107");
  EXPECT_EQ(KB->nvccRangeForArch("sm_107a"), set(">=13.4"))
      << rangeOf("sm_107a");
  EXPECT_EQ(KB->nvccRangeForArch("sm_107f"), set(">=13.4"))
      << rangeOf("sm_107f");
}

TEST_F(ShippedTables, ArchsDroppedByLaterToolkits) {
  // 13.0 dropped Maxwell, Pascal and Volta (sm_50 .. sm_72).
  for (const char *Arch : {"sm_50", "sm_60", "sm_61", "sm_70", "sm_72"}) {
    VersionSet R = KB->nvccRangeForArch(Arch);
    EXPECT_TRUE(R.contains(v("12.9.86"))) << Arch << ": " << R.str();
    EXPECT_FALSE(R.contains(v("13.0.88"))) << Arch << ": " << R.str();
    EXPECT_EQ(R, set(">=10.2,<13")) << Arch;
  }
  const ToolkitRow *T13 = KB->toolkit(v("13.0.88"));
  ASSERT_NE(T13, nullptr);
  EXPECT_FALSE(T13->compiles("sm_70"));
  EXPECT_TRUE(T13->compiles("sm_75"));
  // sm_101 existed only in 12.8 and 12.9 (renamed sm_110 in 13.0).
  EXPECT_EQ(KB->nvccRangeForArch("sm_101"), set(">=12.8,<13"))
      << rangeOf("sm_101");
  // Kepler: 35/37 until 11.8, 30/32 until 10.2.
  EXPECT_EQ(KB->nvccRangeForArch("sm_35"), set(">=10.2,<12"))
      << rangeOf("sm_35");
  EXPECT_EQ(KB->nvccRangeForArch("sm_30"), set(">=10.2,<11"))
      << rangeOf("sm_30");
}

TEST_F(ShippedTables, ArchSpecificAndFamilyTargets) {
  EXPECT_EQ(KB->nvccRangeForArch("sm_90a"), set(">=12.0")) << rangeOf("sm_90a");
  EXPECT_EQ(KB->nvccRangeForArch("sm_100a"), set(">=12.8"))
      << rangeOf("sm_100a");
  EXPECT_EQ(KB->nvccRangeForArch("sm_101a"), set(">=12.8,<13"))
      << rangeOf("sm_101a");
  EXPECT_EQ(KB->nvccRangeForArch("sm_100f"), set(">=12.9"))
      << rangeOf("sm_100f");
  EXPECT_EQ(KB->nvccRangeForArch("sm_101f"), set(">=12.9,<13"))
      << rangeOf("sm_101f");
  EXPECT_EQ(KB->nvccRangeForArch("sm_110a"), set(">=13.0"))
      << rangeOf("sm_110a");
  EXPECT_EQ(KB->nvccRangeForArch("sm_110f"), set(">=13.0"))
      << rangeOf("sm_110f");
  // There is no sm_90f and no sm_80a.
  EXPECT_TRUE(KB->nvccRangeForArch("sm_90f").isEmpty()) << rangeOf("sm_90f");
  EXPECT_TRUE(KB->nvccRangeForArch("sm_80a").isEmpty()) << rangeOf("sm_80a");
}

TEST_F(ShippedTables, UnknownOrMalformedArchsHaveNoToolkit) {
  for (const char *Arch : {"sm_108", "sm_99", "compute_90", "sm90", "", "sm_"})
    EXPECT_TRUE(KB->nvccRangeForArch(Arch).isEmpty())
        << "'" << Arch << "': " << rangeOf(Arch);
}

TEST_F(ShippedTables, DriverFloorsAndToolkitDrivers) {
  const DriverFloorRow *F11 = KB->driverFloor(11);
  const DriverFloorRow *F12 = KB->driverFloor(12);
  const DriverFloorRow *F13 = KB->driverFloor(13);
  ASSERT_TRUE(F11 && F12 && F13);
  EXPECT_EQ(F11->MinDriver, v("450.80.02"));
  EXPECT_EQ(F12->MinDriver, v("525.60.13"));
  EXPECT_EQ(F13->MinDriver, v("580"));
  EXPECT_LT(v("575.57.08"), F13->MinDriver);
  EXPECT_LE(F13->MinDriver, v("580.65.06"));
  EXPECT_EQ(KB->driverFloor(10), nullptr);
  EXPECT_EQ(KB->driverFloor(14), nullptr);

  // Table 3 GA drivers, for the first release of each row.
  const ToolkitRow *T128 = KB->toolkit(v("12.8.93"));
  ASSERT_NE(T128, nullptr);
  EXPECT_EQ(T128->MinDriver, v("570.26"));
  const ToolkitRow *T130 = KB->toolkit(v("13.0.88"));
  ASSERT_NE(T130, nullptr);
  EXPECT_EQ(T130->MinDriver, v("580.65.06"));
  const ToolkitRow *T118 = KB->toolkit(v("11.8.89"));
  ASSERT_NE(T118, nullptr);
  EXPECT_EQ(T118->MinDriver, v("520.61.05"));
  // 13.3 is in no release notes cited: no minimum is claimed.
  const ToolkitRow *T133 = KB->toolkit(v("13.3.73"));
  ASSERT_NE(T133, nullptr);
  EXPECT_FALSE(T133->MinDriver.has_value());
  // The 12.2 split keeps each part's own first release: GA and Update 1.
  const ToolkitRow *T122 = KB->toolkit(v("12.2.91"));
  const ToolkitRow *T1221 = KB->toolkit(v("12.2.128"));
  ASSERT_TRUE(T122 && T1221);
  EXPECT_NE(T122, T1221);
  EXPECT_EQ(T122->MinDriver, v("535.54.03"));
  EXPECT_EQ(T1221->MinDriver, v("535.86.09"));
  // A toolkit's driver is never below its major's floor (except 11.0, which
  // predates the 11.x floor: its runtime needs only 450.36.06).
  for (const ToolkitRow &Row : KB->toolkits()) {
    if (!Row.MinDriver || Row.Range.contains(v("11.0")))
      continue;
    uint64_t Major = Row.Range.intervals().front().Lower.Value->major();
    if (const DriverFloorRow *F = KB->driverFloor(Major)) {
      EXPECT_LE(F->MinDriver, *Row.MinDriver) << Row.RangeText;
    }
  }
}

// --- the loader's diagnostics ------------------------------------------------

/// The rendered diagnostics of a failed addFile ("" if it succeeded).
std::string errorsOf(KnowledgeBase &KB, llvm::StringRef Text,
                     llvm::StringRef File = "kb.toml") {
  llvm::Error E = KB.addFile(Text, File);
  if (!E)
    return "";
  std::string Out;
  llvm::handleAllErrors(
      std::move(E),
      [&](const DiagnosticError &D) {
        for (const Diagnostic &Diag : D.diagnostics())
          Out += Diag.render();
      },
      [&](const llvm::ErrorInfoBase &B) {
        ADD_FAILURE() << "not a DiagnosticError: " << B.message();
      });
  return Out;
}

const char GoodRow[] = R"([[toolkit]]
cuda = ">=12.8,<12.9"
max_gcc = 14
max_clang = 19
archs = ["sm_90", "sm_120"]
arch_specific = ["sm_90a"]
min_driver = "570.26"
source = "test"
)";

TEST(KnowledgeBaseLoader, AcceptsAWellFormedRow) {
  KnowledgeBase KB;
  EXPECT_EQ(errorsOf(KB, GoodRow), "");
  ASSERT_EQ(KB.toolkits().size(), 1u);
  const ToolkitRow &R = KB.toolkits()[0];
  EXPECT_EQ(R.RangeText, ">=12.8,<12.9");
  EXPECT_EQ(R.Loc.File, "kb.toml");
  EXPECT_EQ(R.Loc.Line, 2u);
  EXPECT_EQ(R.Loc.Column, 8u);
  EXPECT_EQ(R.ArchSpecific, std::vector<std::string>{"sm_90a"});
  // Open above: it is the newest (only) row.
  EXPECT_EQ(KB.nvccRangeForArch("sm_120"), set(">=12.8"));
}

TEST(KnowledgeBaseLoader, MissingSourceIsAnError) {
  KnowledgeBase KB;
  std::string Errs = errorsOf(KB, R"(# header
[[toolkit]]
cuda = ">=12.8,<12.9"
max_gcc = 14
)");
  EXPECT_THAT(Errs, HasSubstr("kb.toml:2:1: error: [[toolkit]] row has no "
                              "'source'; every row must cite where its "
                              "values come from"));
  EXPECT_TRUE(KB.empty());

  Errs = errorsOf(KB, "[[driver_floor]]\ncuda_major = 12\n"
                      "min_driver = \"525.60.13\"\nsource = \"  \"\n");
  EXPECT_THAT(Errs, HasSubstr("kb.toml:4:10: error: 'source' is empty"));
  EXPECT_TRUE(KB.empty());
}

TEST(KnowledgeBaseLoader, BadRange) {
  KnowledgeBase KB;
  std::string Errs = errorsOf(KB, R"([[toolkit]]
cuda = ">=12.8,<<12.9"
source = "s"
)");
  EXPECT_THAT(Errs, HasSubstr("kb.toml:2:8: error: invalid range "
                              "'>=12.8,<<12.9': "));
  EXPECT_THAT(Errs, HasSubstr("  cuda = \">=12.8,<<12.9\"\n         ^\n"));

  Errs = errorsOf(KB, "[[toolkit]]\nsource = \"s\"\ncuda = \">=13.1\"\n");
  EXPECT_THAT(Errs, HasSubstr("kb.toml:3:8: error: range '>=13.1' must have "
                              "a lower and an upper bound"));
  Errs = errorsOf(KB, "[[toolkit]]\nsource = \"s\"\ncuda = \">=13,<12\"\n");
  EXPECT_THAT(Errs, HasSubstr("kb.toml:3:8: error: range '>=13,<12' contains "
                              "no version"));
  Errs = errorsOf(KB, "[[toolkit]]\nsource = \"s\"\n");
  EXPECT_THAT(Errs, HasSubstr("kb.toml:1:1: error: [[toolkit]] row has no "
                              "'cuda'"));
  EXPECT_TRUE(KB.empty());
}

TEST(KnowledgeBaseLoader, MisspeltKeySuggestsTheNearestOne) {
  KnowledgeBase KB;
  std::string Errs = errorsOf(KB, R"([[toolkit]]
cuda = ">=12.8,<12.9"
max_gccc = 14
arch_spesific = ["sm_90a"]
source = "s"
)");
  EXPECT_THAT(Errs, HasSubstr("kb.toml:3:1: error: unknown key 'max_gccc' in "
                              "[[toolkit]]\n  max_gccc = 14\n  ^\n  did you "
                              "mean 'max_gcc'?"));
  EXPECT_THAT(Errs, HasSubstr("kb.toml:4:1: error: unknown key "
                              "'arch_spesific' in [[toolkit]]"));
  EXPECT_THAT(Errs, HasSubstr("did you mean 'arch_specific'?"));
  // Diagnostics come in file order.
  EXPECT_LT(Errs.find("max_gccc"), Errs.find("arch_spesific"));

  Errs = errorsOf(KB, "[[toolkits]]\ncuda = \">=12.8,<12.9\"\n");
  EXPECT_THAT(Errs, HasSubstr("kb.toml:1:3: error: unknown key 'toolkits'"));
  EXPECT_THAT(Errs, HasSubstr("did you mean 'toolkit'?"));
  Errs = errorsOf(KB, "[[driver_floor]]\ncuda_majr = 12\n"
                      "min_driver = \"1\"\nsource = \"s\"\n");
  EXPECT_THAT(Errs, HasSubstr("kb.toml:1:1: error: [[driver_floor]] row has "
                              "no 'cuda_major'"));
  EXPECT_THAT(Errs, HasSubstr("kb.toml:2:1: error: unknown key 'cuda_majr' in "
                              "[[driver_floor]]"));
  EXPECT_THAT(Errs, HasSubstr("did you mean 'cuda_major'?"));
  EXPECT_TRUE(KB.empty());
}

TEST(KnowledgeBaseLoader, WrongTypes) {
  KnowledgeBase KB;
  std::string Errs = errorsOf(KB, R"([[toolkit]]
cuda = ">=12.8,<12.9"
max_gcc = 14
max_clang = "19"
archs = "sm_90"
min_driver = 570
source = "s"
)");
  EXPECT_THAT(Errs, HasSubstr("kb.toml:4:13: error: 'max_clang' must be an "
                              "integer, not a string"));
  EXPECT_THAT(Errs, HasSubstr("kb.toml:5:9: error: 'archs' must be an array "
                              "of strings such as [\"sm_90\"], not a string"));
  EXPECT_THAT(Errs, HasSubstr("kb.toml:6:14: error: 'min_driver' must be a "
                              "string, not an integer"));
  Errs = errorsOf(KB, "toolkit = 3\n");
  EXPECT_THAT(Errs, HasSubstr("kb.toml:1:11: error: 'toolkit' must be an "
                              "array of tables ([[toolkit]]), not an "
                              "integer"));
  Errs = errorsOf(KB, "[[toolkit]]\ncuda = \">=1,<2\"\nmax_gcc = -3\n"
                      "source = \"s\"\n");
  EXPECT_THAT(Errs, HasSubstr("kb.toml:3:11: error: 'max_gcc' must be a "
                              "positive integer"));
  EXPECT_TRUE(KB.empty());
}

TEST(KnowledgeBaseLoader, BadArchs) {
  KnowledgeBase KB;
  std::string Errs = errorsOf(KB, R"([[toolkit]]
cuda = ">=12.8,<12.9"
archs = ["sm_90", "sm9", "sm_90a", "sm_90", 75]
family = ["sm_100a"]
source = "s"
)");
  EXPECT_THAT(Errs, HasSubstr("kb.toml:3:19: error: invalid arch 'sm9'; "
                              "expected sm_XX, sm_XXa or sm_XXf"));
  EXPECT_THAT(Errs, HasSubstr("kb.toml:3:26: error: arch 'sm_90a' does not "
                              "belong in 'archs'; list it in "
                              "'arch_specific'"));
  EXPECT_THAT(Errs, HasSubstr("kb.toml:3:36: error: duplicate arch 'sm_90' "
                              "in 'archs'"));
  EXPECT_THAT(Errs, HasSubstr("kb.toml:3:45: error: 'archs' entries must be "
                              "strings, not an integer"));
  EXPECT_THAT(Errs, HasSubstr("kb.toml:4:11: error: arch 'sm_100a' does not "
                              "belong in 'family'"));
  EXPECT_TRUE(KB.empty());
}

TEST(KnowledgeBaseLoader, BadDriverVersions) {
  KnowledgeBase KB;
  std::string Errs = errorsOf(KB, R"([[driver_floor]]
cuda_major = 12
min_driver = "525.x"
source = "s"

[[driver_floor]]
cuda_major = 13
min_driver = "580rc1"
source = "s"
)");
  EXPECT_THAT(Errs, HasSubstr("kb.toml:3:14: error: invalid min_driver "
                              "'525.x': "));
  EXPECT_THAT(Errs, HasSubstr("kb.toml:8:14: error: invalid min_driver "
                              "'580rc1': expected a dotted driver version"));
  EXPECT_TRUE(KB.empty());
}

TEST(KnowledgeBaseLoader, OverlapsAndDuplicatesAcrossFiles) {
  KnowledgeBase KB;
  ASSERT_EQ(errorsOf(KB, GoodRow, "a.toml"), "");
  ASSERT_EQ(errorsOf(KB,
                     "[[driver_floor]]\ncuda_major = 12\n"
                     "min_driver = \"525.60.13\"\nsource = \"s\"\n",
                     "a.toml"),
            "");
  std::string Errs = errorsOf(KB, R"([[toolkit]]
cuda = ">=12.6,<12.8.5"
source = "s"

[[driver_floor]]
cuda_major = 12
min_driver = "525"
source = "s"
)",
                              "b.toml");
  EXPECT_THAT(Errs, HasSubstr("b.toml:2:8: error: range '>=12.6,<12.8.5' "
                              "overlaps '>=12.8,<12.9' (a.toml:2:8)"));
  EXPECT_THAT(Errs, HasSubstr("b.toml:6:14: error: a driver floor for CUDA 12 "
                              "is already defined at a.toml:2:14"));
  // The failed file added nothing.
  EXPECT_EQ(KB.toolkits().size(), 1u);
  EXPECT_EQ(KB.driverFloors().size(), 1u);
}

TEST(KnowledgeBaseLoader, InvalidToml) {
  KnowledgeBase KB;
  std::string Errs = errorsOf(KB, "[[toolkit]]\ncuda = \">=1\nsource = 1\n");
  EXPECT_THAT(Errs, HasSubstr("kb.toml:2:"));
  EXPECT_THAT(Errs, HasSubstr("error: invalid TOML: "));
  EXPECT_TRUE(KB.empty());
}

class TempDir : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("cudadeps-kb", Dir));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }
  void write(llvm::StringRef Name, llvm::StringRef Text) {
    llvm::SmallString<128> Path(Dir);
    llvm::sys::path::append(Path, Name);
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    ASSERT_FALSE(EC) << EC.message();
    OS << Text;
  }
  llvm::SmallString<128> Dir;
};

TEST_F(TempDir, LoadDirectoryReadsEveryTomlFile) {
  write("a.toml", GoodRow);
  write("b.toml", "[[driver_floor]]\ncuda_major = 12\n"
                  "min_driver = \"525.60.13\"\nsource = \"s\"\n");
  write("README.md", "not a table");
  Expected<KnowledgeBase> KB = KnowledgeBase::loadDirectory(Dir);
  ASSERT_TRUE(bool(KB)) << llvm::toString(KB.takeError());
  EXPECT_EQ(KB->toolkits().size(), 1u);
  ASSERT_NE(KB->driverFloor(12), nullptr);
  EXPECT_THAT(KB->driverFloor(12)->Loc.File, HasSubstr("b.toml"));
}

TEST_F(TempDir, LoadDirectoryReportsTheBadFile) {
  write("a.toml", "[[toolkit]]\ncuda = \">=12.8,<12.9\"\n");
  Expected<KnowledgeBase> KB = KnowledgeBase::loadDirectory(Dir);
  ASSERT_FALSE(bool(KB));
  std::string Msg = llvm::toString(KB.takeError());
  EXPECT_THAT(Msg, HasSubstr("a.toml:1:1: error: [[toolkit]] row has no "
                             "'source'"));
}

TEST_F(TempDir, LoadDirectoryNeedsTables) {
  Expected<KnowledgeBase> Empty = KnowledgeBase::loadDirectory(Dir);
  ASSERT_FALSE(bool(Empty));
  EXPECT_THAT(llvm::toString(Empty.takeError()), HasSubstr("no *.toml files"));
  Expected<KnowledgeBase> Missing =
      KnowledgeBase::loadDirectory(std::string(Dir) + "/absent");
  ASSERT_FALSE(bool(Missing));
  EXPECT_THAT(llvm::toString(Missing.takeError()),
              HasSubstr("cannot read knowledge base directory"));
}

} // namespace

namespace {

TEST(KnowledgeBaseQueries, OnlyPreReleaseGapsAreClosed) {
  KnowledgeBase KB;
  llvm::Error E = KB.addFile(R"([[toolkit]]
cuda = ">=1.0,<2"
archs = ["sm_80"]
source = "s"

[[toolkit]]
cuda = ">=2.0,<2.1"
archs = ["sm_80", "sm_90"]
source = "s"

[[toolkit]]
cuda = ">=2.2,<2.3"
archs = ["sm_80"]
source = "s"

[[toolkit]]
cuda = ">=2.3,<2.4"
archs = ["sm_90"]
source = "s"
)",
                             "q.toml");
  ASSERT_FALSE(bool(E)) << llvm::toString(std::move(E));
  // 1.x and 2.0 join (only 2.0's pre-releases lie between); 2.1 is a real
  // gap; 2.2 is not the newest row, so sm_80 is not extrapolated.
  EXPECT_EQ(KB.nvccRangeForArch("sm_80"), set(">=1.0,<2.1 || >=2.2,<2.3"));
  EXPECT_FALSE(KB.nvccRangeForArch("sm_80").contains(v("2.1.5")));
  EXPECT_TRUE(KB.nvccRangeForArch("sm_80").contains(v("2.0.3")));
  // sm_90 is in the newest row: open above.
  EXPECT_EQ(KB.nvccRangeForArch("sm_90"), set(">=2.0,<2.1 || >=2.3"));
  EXPECT_EQ(KB.knownRange(), set(">=1.0,<2.1 || >=2.2,<2.4"));
  EXPECT_EQ(KB.toolkit(v("2.1.0")), nullptr);
  EXPECT_EQ(KB.toolkit(v("2.4")), nullptr);
}

} // namespace

TEST(KnowledgeBaseLoader, TorchPypiCudaAndCompleteness) {
  KnowledgeBase KB;
  EXPECT_EQ(errorsOf(KB, R"([[torch]]
torch = "2.15"
cuda = ["13.2"]
pypi_cuda = "13.2"
cuda_complete = false
source = "s"

[[torch]]
torch = "2.8"
cuda = ["12.6", "12.8", "12.9"]
pypi_cuda = "12.8"
source = "s"
)"),
            "");
  const TorchRow *New = KB.torchRow(v("2.15.0"));
  const TorchRow *Old = KB.torchRow(v("2.8.0"));
  ASSERT_TRUE(New && Old);
  EXPECT_EQ(New->PypiCuda, v("13.2"));
  EXPECT_FALSE(New->CudaComplete);
  // An incomplete list rules nothing out; a complete one does.
  EXPECT_TRUE(New->hasCudaMajor(12));
  EXPECT_EQ(New->cudaMajors(), (std::vector<uint64_t>{13}));
  EXPECT_TRUE(Old->CudaComplete);
  EXPECT_FALSE(Old->hasCudaMajor(13));
  EXPECT_TRUE(Old->hasCudaMajor(12));

  KnowledgeBase Bad;
  std::string Errs = errorsOf(Bad, R"([[torch]]
torch = "2.9"
cuda = ["12.6", "12.8"]
pypi_cuda = "13.0"
cuda_complete = "no"
source = "s"
)");
  EXPECT_THAT(Errs, HasSubstr("kb.toml:4:13: error: pypi_cuda '13.0' is not "
                              "one of the row's 'cuda' toolkits"));
  EXPECT_THAT(Errs, HasSubstr("kb.toml:5:17: error: 'cuda_complete' must be "
                              "true or false, not a string"));
  EXPECT_TRUE(Bad.empty());
}

TEST_F(TempDir, CachedTablesAreTheParsedOnesUntilAFileChanges) {
  // The shipped tables, copied: the second load comes from the cache and
  // holds the same rows and answers.
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator I(shippedDir(), EC), E; I != E && !EC;
       I.increment(EC))
    ASSERT_FALSE(llvm::sys::fs::copy_file(
        I->path(), std::string(Dir) + "/" +
                       llvm::sys::path::filename(I->path()).str()));
  std::string Cache = std::string(Dir) + "/.cache";
  Expected<KnowledgeBase> Parsed = KnowledgeBase::loadDirectory(Dir, Cache);
  ASSERT_TRUE(bool(Parsed)) << llvm::toString(Parsed.takeError());
  LoadCache C(Cache, "knowledge-base", Dir);
  ASSERT_TRUE(llvm::sys::fs::exists(C.path()));
  Expected<KnowledgeBase> Cached = KnowledgeBase::loadDirectory(Dir, Cache);
  ASSERT_TRUE(bool(Cached)) << llvm::toString(Cached.takeError());
  EXPECT_EQ(Parsed->encode(), Cached->encode());
  EXPECT_EQ(Cached->nvccRangeForArch("sm_90").str(),
            Parsed->nvccRangeForArch("sm_90").str());
  EXPECT_EQ(Cached->toolkits().front().Loc.File,
            Parsed->toolkits().front().Loc.File);
  EXPECT_THAT(Cached->toolkits().front().Loc.File, HasSubstr("toolkits.toml"));

  // The second load really read the cache: given other tables (one row)
  // for the same files, it returns those.
  KnowledgeBase One;
  ASSERT_FALSE(bool(One.addFile(GoodRow, "x.toml")));
  LoadCacheContents Other = C.read();
  ASSERT_EQ(Other.Files.size(), 5u);
  Other.Combined = One.encode();
  C.write(Other);
  Expected<KnowledgeBase> FromCache = KnowledgeBase::loadDirectory(Dir, Cache);
  ASSERT_TRUE(bool(FromCache));
  EXPECT_EQ(FromCache->toolkits().size(), 1u);
  // ... until any file changes: then everything is parsed again.
  write("zz-extra.toml", "[[driver_floor]]\ncuda_major = 99\n"
                         "min_driver = \"999\"\nsource = \"s\"\n");
  Expected<KnowledgeBase> Again = KnowledgeBase::loadDirectory(Dir, Cache);
  ASSERT_TRUE(bool(Again)) << llvm::toString(Again.takeError());
  EXPECT_EQ(Again->toolkits().size(), Parsed->toolkits().size());
  ASSERT_NE(Again->driverFloor(99), nullptr);

  // A broken file is an error every time, cache or not.
  write("zz-extra.toml", "[[driver_floor]]\ncuda_major = \"x\"\n");
  for (int I = 0; I < 2; ++I) {
    Expected<KnowledgeBase> Bad = KnowledgeBase::loadDirectory(Dir, Cache);
    ASSERT_FALSE(bool(Bad));
    EXPECT_THAT(llvm::toString(Bad.takeError()), HasSubstr("zz-extra.toml:2:"));
  }
  // Fixed by removing it: the tables are parsed and cached again.
  ASSERT_FALSE(llvm::sys::fs::remove(std::string(Dir) + "/zz-extra.toml"));
  Expected<KnowledgeBase> Back = KnowledgeBase::loadDirectory(Dir, Cache);
  ASSERT_TRUE(bool(Back));
  EXPECT_EQ(Back->encode(), Parsed->encode());
}
