//===- ExplainWordingTest.cpp - explanations speak of releases and machines -===//
//
// `explain` and `resolve` word the solver's proof for people: no trace of
// how strategies, compiler families and ranges are encoded (epochs, .dev0
// bounds, "<=12.8,!=12.8", "gcc any or clang any"), no clause said twice,
// every Python distribution that decided a version among the facts used, and
// one g++ hint that nvcc and torch both accept. Checked over every scenario
// of tests/fixtures/scenarios and every package of the example project.
//
//===----------------------------------------------------------------------===//
#include "tests/support/RunCli.h"

#include "llvm/ADT/StringRef.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

#include <filesystem>
#include <regex>
#include <set>

using namespace cudadeps::test;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

const std::string Scenarios = CUDADEPS_FIXTURES_DIR "/scenarios";
const std::string Example =
    CUDADEPS_SOURCE_DIR "/examples/qwen35-training/cudadeps.toml";

std::vector<std::string> scenarioFiles() {
  std::vector<std::string> Out;
  for (const auto &E : std::filesystem::directory_iterator(Scenarios))
    if (E.path().extension() == ".toml" &&
        E.path().filename() != "demo-project.toml")
      Out.push_back(E.path().string());
  std::sort(Out.begin(), Out.end());
  return Out;
}

/// What must never be shown to a reader, with why.
void expectNoEncoding(const std::string &Text, const std::string &Where) {
  static const std::vector<std::pair<std::regex, const char *>> Leaks = {
      {std::regex(R"(\.dev0)"), "a .dev0 bound"},
      {std::regex(R"(\|\|)"), "'||' between ranges"},
      {std::regex(R"(<=([0-9][0-9a-z.]*),!=\1\b)"), "'<=V,!=V' for '<V'"},
      {std::regex(R"(!=)"), "'!=' holes (read 'other than')"},
      {std::regex(R"([0-9]!)"), "an epoch"},
      {std::regex(R"(\.post\*)"), "a sentinel bound"},
      {std::regex(R"(any or)"), "'gcc any or clang any'"},
      {std::regex(R"(host-compiler)"), "the solver's package name"},
      {std::regex(R"(match other than)"), "'match other than'"},
      {std::regex(R"(\(no versions\))"), "an empty set"},
  };
  for (const auto &[Re, What] : Leaks)
    EXPECT_FALSE(std::regex_search(Text, Re))
        << Where << " shows " << What << ":\n"
        << Text;
  // No line says the same clause twice ("because X (1), X." or "X and X").
  llvm::SmallVector<llvm::StringRef, 32> Lines;
  llvm::StringRef(Text).split(Lines, '\n');
  std::set<std::string> Seen;
  for (llvm::StringRef L : Lines) {
    // Each package's reasons are its own.
    if (!L.startswith(" "))
      Seen.clear();
    llvm::StringRef Body = L.trim();
    if (Body.empty() || Body.startswith("gpu ") ||
        Body.startswith("(") || !Body.contains(' '))
      continue;
    static const std::regex Twice(R"(because (.+) \(\d+\), \1\.)");
    EXPECT_FALSE(std::regex_search(Body.str(), Twice))
        << Where << " repeats a clause: " << Body.str();
    if (Body.startswith("because") || Body.startswith("and ")) {
      EXPECT_TRUE(Seen.insert(Body.ltrim("and ").str()).second)
          << Where << " says twice: " << Body.str();
    }
  }
}

TEST(ExplainWording, NoSolverEncodingInAnyScenario) {
  std::vector<std::string> Files = scenarioFiles();
  ASSERT_GE(Files.size(), 10u);
  for (const std::string &F : Files) {
    for (const char *Pkg : {"causal-conv1d", "flash-linear-attention"}) {
      RunResult R =
          runCudadeps({"explain", Example, Pkg, "--facts", F});
      ASSERT_NE(R.Code, 2) << F << ": " << R.Err;
      expectNoEncoding(R.Out, F + " explain " + Pkg);
    }
    RunResult R = runCudadeps({"resolve", Example, "--facts", F});
    ASSERT_NE(R.Code, 2) << F << ": " << R.Err;
    expectNoEncoding(R.Out, F + " resolve");
  }
}

TEST(ExplainWording, DemoRegistryScenarios) {
  for (const std::string &F : scenarioFiles()) {
    RunResult R = runCudadeps({"explain", Scenarios + "/demo-project.toml",
                               "demo-ext", "--registry",
                               Scenarios + "/registry", "--facts", F});
    if (R.Code == 2 && R.Err.find("not part of this resolution") !=
                           std::string::npos)
      continue;
    ASSERT_NE(R.Code, 2) << F << ": " << R.Err;
    expectNoEncoding(R.Out, F + " explain demo-ext");
  }
}

TEST(ExplainWording, SetsAreWordedByTheReleasesTheyHold) {
  // sm_120 needs nvcc >= 12.8 and the machine has 12.4: every source
  // release from the first that lists sm_120 on is out, said as one range.
  RunResult R =
      runCudadeps({"explain", Example, "causal-conv1d", "--facts",
                   Scenarios + "/rtx5090-only-12.4.toml"});
  EXPECT_EQ(R.Code, 0) << R.Err;
  EXPECT_TRUE(std::regex_search(
      R.Out, std::regex(R"(because the target sm_120 \(NVIDIA GeForce RTX )"
                        R"(5090\) needs nvcc >=12\.8, causal-conv1d )"
                        R"(>=[0-9][0-9a-z.]* \(source build\) is forbidden)")))
      << R.Out;
  EXPECT_THAT(R.Out, HasSubstr("requires nvcc >=12,<12.8"));
  // The two wheels that do not fit, with their reason once.
  EXPECT_THAT(R.Out, HasSubstr("==1.6.1 (prebuilt) are unavailable (no "
                               "prebuilt wheel"));
}

TEST(ExplainWording, MachineGapsReadAsWhatTheMachineLacks) {
  RunResult R =
      runCudadeps({"explain", Example, "causal-conv1d", "--facts",
                   Scenarios + "/torch211-nvcc128-gcc14.toml"});
  EXPECT_EQ(R.Code, 0) << R.Err;
  EXPECT_THAT(R.Out, HasSubstr("the machine has no nvcc ==12.* other than "
                               "12.8.93"));
  EXPECT_THAT(R.Out, HasSubstr("the machine has no host compiler gcc <15 "
                               "other than 14.2.0 or clang <20"));
  EXPECT_THAT(R.Out, HasSubstr("host compiler (gcc <15 or clang <20)"));
  // A prebuilt-only set is labelled: "any (prebuilt)", not "any".
  EXPECT_THAT(R.Out, HasSubstr("causal-conv1d any (prebuilt) is forbidden"));
  EXPECT_THAT(R.Out, Not(HasSubstr("g++-14`")));
}

TEST(ExplainWording, FactsUsedNameTheDistributionsThatDecide) {
  RunResult R = runCudadeps({"explain", Example, "flash-linear-attention",
                             "--facts", Scenarios + "/seed.toml"});
  EXPECT_EQ(R.Code, 0) << R.Err;
  EXPECT_THAT(R.Out, HasSubstr("  triton 3.6.0: declared in "));
  EXPECT_THAT(R.Out, HasSubstr("  transformers 5.2.0: declared in "));
  // Through fla-core's extras too.
  EXPECT_THAT(R.Out, HasSubstr("  torch 2.11.0+cu128 (cuda 12.8): declared"));
}

TEST(ExplainWording, PurePythonIsNotBuiltFromSource) {
  RunResult R = runCudadeps({"explain", Example, "flash-linear-attention",
                             "--facts", Scenarios + "/seed.toml", "--set",
                             "packages.transformers=5.7.0"});
  EXPECT_EQ(R.Code, 0) << R.Err;
  EXPECT_THAT(R.Out, HasSubstr("derivation: the preferred configuration (the "
                               "newest release) resolved without conflict"));
  EXPECT_THAT(R.Out, HasSubstr("  transformers 5.7.0: "));
}

TEST(ExplainWording, NoTorchIsSaidOncePerPackage) {
  std::string Facts = ::testing::TempDir() + "/explain-no-torch.toml";
  {
    std::FILE *F = std::fopen(Facts.c_str(), "w");
    ASSERT_NE(F, nullptr);
    std::fputs("[[nvcc]]\npath = \"/opt/cuda/bin/nvcc\"\nversion = "
               "\"12.8.93\"\n[[compiler]]\npath = \"/usr/bin/g++-13\"\nfamily "
               "= \"gcc\"\nversion = \"13.3.0\"\n[python]\npath = "
               "\"/usr/bin/python3\"\nversion = \"3.12.3\"\n[platform]\nos = "
               "\"linux\"\narch = \"x86_64\"\n",
               F);
    std::fclose(F);
  }
  RunResult R = runCudadeps({"resolve", Example, "--facts", Facts});
  EXPECT_EQ(R.Code, 0) << R.Err;
  EXPECT_THAT(R.Out, Not(HasSubstr("no prebuilt binary can be chosen")));
  // Two releases' torch requirements are one line.
  // Several releases' requirements on one package are one line.
  EXPECT_TRUE(std::regex_search(
      R.Out, std::regex(R"(flash-linear-attention needs transformers [^\n]* )"
                        R"(or [^\n]*\(by release\))")))
      << R.Out;
  expectNoEncoding(R.Out, "resolve without torch");
}

} // namespace
