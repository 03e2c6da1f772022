//===- UserChoicesTest.cpp - the user's choices honoured or refused -------===//
//
// What the user writes (--set, --arch, a project's requires) is used as
// written or refused with a reason and a suggestion; the report never makes
// a decision silently (an assumed arch list, a torch extension without
// torch, the order of packages, singular and plural).
//
//===----------------------------------------------------------------------===//
#include "tests/support/RunCli.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

using namespace cudadeps::test;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

const std::string Scenarios = CUDADEPS_FIXTURES_DIR "/scenarios";
const std::string Projects = CUDADEPS_FIXTURES_DIR "/projects";

std::string seedProject() {
  return CUDADEPS_SOURCE_DIR "/examples/qwen35-training/cudadeps.toml";
}

RunResult run(const std::string &Command, const std::string &Project,
              const std::string &Facts, std::vector<std::string> Extra = {}) {
  std::vector<std::string> Args{Command, Project, "--facts",
                                Scenarios + "/" + Facts + ".toml"};
  Args.insert(Args.end(), Extra.begin(), Extra.end());
  return runCudadeps(Args);
}

RunResult resolve(const std::string &Project, const std::string &Facts,
                  std::vector<std::string> Extra = {}) {
  return run("resolve", Project, Facts, std::move(Extra));
}

} // namespace

TEST(SetOption, UnknownBareKeyIsAnErrorWithSuggestion) {
  RunResult R = resolve(seedProject(), "seed", {"--set", "tirton=3.6.0"});
  EXPECT_EQ(R.Code, 2) << R.Out;
  EXPECT_THAT(R.Err, HasSubstr("unknown key 'tirton'"));
  EXPECT_THAT(R.Err, HasSubstr("did you mean 'triton'?"));
  R = resolve(seedProject(), "seed", {"--set", "foo=1"});
  EXPECT_EQ(R.Code, 2) << R.Out;
  EXPECT_THAT(R.Err, HasSubstr("unknown key 'foo'"));
  EXPECT_THAT(R.Err, HasSubstr("write packages.foo=1"));
  // Named explicitly, a Python distribution is accepted.
  R = resolve(seedProject(), "seed", {"--set", "packages.foo=1"});
  EXPECT_EQ(R.Code, 0) << R.Err;
  R = resolve(seedProject(), "seed", {"--set", "triton=3.6.0"});
  EXPECT_EQ(R.Code, 0) << R.Err;
}

TEST(ArchOption, ComputeCapabilitySuggestsTheArch) {
  RunResult R = resolve(seedProject(), "seed", {"--arch", "9.0"});
  EXPECT_EQ(R.Code, 2);
  EXPECT_THAT(R.Err, HasSubstr("invalid --arch '9.0'"));
  EXPECT_THAT(R.Err, HasSubstr("did you mean 'sm_90'?"));
  R = resolve(seedProject(), "seed", {"--arch", "compute_120"});
  EXPECT_EQ(R.Code, 2);
  EXPECT_THAT(R.Err, HasSubstr("did you mean 'sm_120'?"));
}

// sm_90a is the arch-specific form of sm_90: the newest release, which lists
// sm_90, compiles it; an older release without an arch list is not picked.
TEST(ArchOption, ArchSpecificFormUsesTheNewestRelease) {
  RunResult R = resolve(Projects + "/three-extensions.toml",
                        "build-farm-no-gpu", {"--arch", "sm_90a"});
  EXPECT_EQ(R.Code, 0) << R.Err;
  EXPECT_THAT(R.Out, HasSubstr("causal-conv1d  1.7.0  build from source "
                               "with nvcc 12.8.93"));
  EXPECT_THAT(R.Out, HasSubstr("flash-attn     2.8.3.post2  build from source"));
  EXPECT_THAT(R.Out, HasSubstr("; archs sm_90a\n"));
  EXPECT_THAT(R.Out, HasSubstr("targets: sm_90a (--arch)"));
}

TEST(ArchOption, TargetsAreSortedAndUnique) {
  RunResult R =
      resolve(Projects + "/three-extensions.toml", "build-farm-no-gpu",
              {"--arch", "sm_120", "--arch", "sm_90", "--arch", "sm_120"});
  EXPECT_EQ(R.Code, 0) << R.Err;
  EXPECT_THAT(R.Out, HasSubstr("targets: sm_90 sm_120 (--arch)"));
  EXPECT_THAT(R.Out, HasSubstr("; archs sm_90 sm_120\n"));
}

// A release without an archs list is not "every target arch".
TEST(ReleaseArchs, MissingListIsSaid) {
  const std::string Package = Projects + "/release-without-archs.toml";
  RunResult R = resolve(Package, "build-farm-no-gpu");
  EXPECT_EQ(R.Code, 0) << R.Err;
  EXPECT_THAT(R.Out, HasSubstr("no-archs-ext  1.0.0  build from source"));
  EXPECT_THAT(R.Out, Not(HasSubstr("archs none")));
  EXPECT_THAT(R.Out, HasSubstr("archs chosen by its build"));
  EXPECT_THAT(R.Out, HasSubstr("warning: no-archs-ext 1.0.0 lists no archs and "
                               "no targets were declared"));
  R = resolve(Package, "build-farm-no-gpu", {"--arch", "sm_90"});
  EXPECT_EQ(R.Code, 0) << R.Err;
  EXPECT_THAT(R.Out, HasSubstr("warning: no-archs-ext 1.0.0 lists no archs: "
                               "assuming it compiles the targets (sm_90)"));
}

// Every shipped release says which archs it compiles.
TEST(ReleaseArchs, ShippedReleasesListTheirArchs) {
  RunResult R = resolve(Projects + "/three-extensions.toml",
                        "build-farm-no-gpu");
  EXPECT_EQ(R.Code, 0) << R.Err;
  EXPECT_THAT(R.Out, Not(HasSubstr("archs chosen by its build")));
  EXPECT_THAT(R.Out, Not(HasSubstr("lists no archs")));
}

// A torch extension's build imports torch: no torch, no source build (and
// without their fallbacks, nothing is usable).
TEST(TorchExtension, NoTorchIsNoSourceBuild) {
  RunResult R = resolve(Projects + "/three-extensions.toml",
                        "build-farm-no-gpu", {"--set", "torch=", "--no-fallback"});
  EXPECT_EQ(R.Code, 1) << R.Err;
  EXPECT_THAT(R.Out, Not(HasSubstr("build from source")));
  EXPECT_THAT(R.Out, HasSubstr("mamba-ssm      cannot be built here"));
  EXPECT_THAT(R.Out,
              HasSubstr("because torch is not installed in the Python "
                        "environment (/usr/bin/python3, Python 3.12.3): "
                        "mamba-ssm is a torch extension"));
}

TEST(TextOutput, PackagesInTheProjectsOrder) {
  for (const char *Facts : {"rtx5090-two-toolkits", "seed"}) {
    RunResult R = resolve(Projects + "/three-extensions.toml", Facts);
    size_t Mamba = R.Out.find("\nmamba-ssm ");
    if (R.Out.rfind("mamba-ssm ", 0) == 0)
      Mamba = 0;
    size_t Conv = R.Out.find("\ncausal-conv1d ");
    size_t Flash = R.Out.find("\nflash-attn ");
    ASSERT_NE(Conv, std::string::npos) << R.Out;
    ASSERT_NE(Flash, std::string::npos) << R.Out;
    EXPECT_EQ(Mamba, 0u) << Facts << ":\n" << R.Out;
    EXPECT_LT(Conv, Flash) << Facts << ":\n" << R.Out;
  }
}

TEST(TextOutput, SingularAndPlural) {
  RunResult R = resolve(seedProject(), "seed");
  EXPECT_EQ(R.Code, 0) << R.Err;
  // flash-linear-attention, its fla-core and causal-conv1d.
  EXPECT_THAT(R.Out, HasSubstr("resolved with a fallback: 1 of 3 packages "
                               "uses a declared fallback\n"));
  // explain speaks of its one package only.
  R = runCudadeps({"explain", seedProject(), "flash-linear-attention",
                   "--facts", Scenarios + "/seed.toml"});
  EXPECT_EQ(R.Code, 0) << R.Err;
  EXPECT_THAT(R.Out, Not(HasSubstr("0 of 1")));
  EXPECT_THAT(R.Out, HasSubstr("resolved: 1 package\n"));
}

TEST(SetOption, NvccRemovedByTheOverrideIsSaid) {
  RunResult R = resolve(Projects + "/three-extensions.toml",
                        "rtx5090-two-toolkits", {"--set", "nvcc="});
  // All three fall back (flash-attn to sdpa), so resolve succeeds.
  EXPECT_EQ(R.Code, 0) << R.Err;
  EXPECT_THAT(R.Out, HasSubstr("3 of 3 packages use a declared fallback"));
  // What ruled the releases out is said, not the range left over.
  EXPECT_THAT(R.Out, Not(HasSubstr("no release of mamba-ssm matches")));
  EXPECT_THAT(R.Out, HasSubstr("because no nvcc was found on this machine "
                               "(--set nvcc= removed the toolkits the facts "
                               "file "));
  EXPECT_THAT(R.Out, HasSubstr("lists: 12.4.131 at /usr/local/cuda-12.4/bin/"
                               "nvcc, 12.8.93 at"));
  EXPECT_THAT(R.Out, Not(HasSubstr("lists no [[nvcc]]")));
}

TEST(Requirements, RangeWithoutReleaseIsAReason) {
  RunResult R = resolve(Projects + "/no-matching-release.toml", "seed");
  EXPECT_EQ(R.Code, 0) << R.Err;
  EXPECT_THAT(R.Out, HasSubstr("  because no release of causal-conv1d matches "
                               ">=9; releases: 1.7.0, 1.6.2.post1, "));
  R = runCudadeps({"explain", Projects + "/no-matching-release.toml",
                   "causal-conv1d", "--facts", Scenarios + "/seed.toml"});
  EXPECT_THAT(R.Out, HasSubstr("depends on causal-conv1d >=9 which doesn't "
                               "match any versions"));
  EXPECT_THAT(R.Out, Not(HasSubstr("causal-conv1d any")));
}

TEST(Requirements, MisspeltPackageIsLocatedWithSuggestion) {
  const std::string Project = Projects + "/misspelt-requirement.toml";
  for (const std::vector<std::string> &Args :
       {std::vector<std::string>{"resolve", Project, "--facts",
                                 Scenarios + "/seed.toml"},
        std::vector<std::string>{"lint", Project}}) {
    RunResult R = runCudadeps(Args);
    EXPECT_EQ(R.Code, 2) << Args[0] << ": " << R.Out;
    EXPECT_THAT(R.Err, HasSubstr("misspelt-requirement.toml:6:39: error: no "
                                 "manifest for package 'casual-conv1d'"));
    EXPECT_THAT(R.Err, HasSubstr("did you mean 'causal-conv1d'?"));
  }
}

TEST(Lint, ReleaseWithoutArchsWarns) {
  RunResult R = runCudadeps({"lint", Projects + "/release-without-archs.toml"});
  EXPECT_EQ(R.Code, 0) << R.Err;
  EXPECT_THAT(R.Err, HasSubstr("release-without-archs.toml:17:11: warning: "
                               "release 1.0.0 lists no archs: resolve assumes "
                               "it compiles the targets"));
  R = runCudadeps({"lint", CUDADEPS_SOURCE_DIR "/manifests/mamba-ssm.toml"});
  EXPECT_EQ(R.Code, 0) << R.Err;
  EXPECT_THAT(R.Err, Not(HasSubstr("lists no archs")));
}

// The compiler the user named ($CUDAHOSTCXX here) is used when nvcc accepts
// it, and --emit env exports it, not g++.
TEST(HostCompiler, ExplicitChoiceIsHonoured) {
  const std::string Project = Projects + "/three-extensions.toml";
  RunResult R = resolve(Project, "chosen-clang");
  EXPECT_EQ(R.Code, 0) << R.Err;
  EXPECT_THAT(R.Out, HasSubstr("causal-conv1d  1.7.0  build from source "
                               "with nvcc 12.8.93 (/usr/local/cuda-12.8/bin/"
                               "nvcc), clang 18.1.8 (/usr/bin/clang++-18, "
                               "named by $CUDAHOSTCXX)"));
  EXPECT_THAT(R.Out, HasSubstr("nvcc's default host compiler: gcc 13.3.0 "
                               "(/usr/bin/g++)\n"));
  RunResult Env =
      resolve(Project, "chosen-clang",
              {"--emit", "env", "--package", "causal-conv1d"});
  EXPECT_EQ(Env.Code, 0) << Env.Err;
  EXPECT_THAT(Env.Out, HasSubstr("NVCC_CCBIN=/usr/bin/clang++-18"));
  EXPECT_THAT(Env.Out, Not(HasSubstr("/usr/bin/g++")));
  RunResult Json = resolve(Project, "chosen-clang", {"--format", "json"});
  EXPECT_THAT(Json.Out, HasSubstr("\"chosen_by\": \"$CUDAHOSTCXX\""));
  EXPECT_THAT(Json.Out, HasSubstr("\"nvcc_default_compiler\": {"));
}

// When nvcc does not accept it, the report says why and what it used.
TEST(HostCompiler, IncompatibleChoiceIsExplained) {
  RunResult R = resolve(Projects + "/three-extensions.toml", "chosen-clang",
                        {"--set", "nvcc.max_clang=17"});
  EXPECT_EQ(R.Code, 0) << R.Err;
  EXPECT_THAT(R.Out, HasSubstr("build from source with nvcc 12.8.93 "
                               "(/usr/local/cuda-12.8/bin/nvcc), gcc 13.3.0 "
                               "(/usr/bin/g++)"));
  EXPECT_THAT(R.Out,
              HasSubstr("  clang 18.1.8 (/usr/bin/clang++-18, named by "
                        "$CUDAHOSTCXX) not used: nvcc 12.8.93 supports gcc <= "
                        "14 and clang <= 17"));
  EXPECT_THAT(R.Out, HasSubstr("; using gcc 13.3.0 (/usr/bin/g++) instead\n"));
}

// An extra is solved as a package of its own; the report speaks of what the
// manifests say (the extra needs causal-conv1d >=X), never of the encoding
// (strategy epochs, the extra's link to its own package).
TEST(Extras, ReasonsUseTheRangesAsWritten) {
  const std::string Project = Projects + "/extras.toml";
  for (const std::vector<std::string> &Args :
       {std::vector<std::string>{"resolve", Project, "--facts",
                                 Scenarios + "/seed.toml"},
        std::vector<std::string>{"explain", Project, "flash-linear-attention",
                                 "--facts", Scenarios + "/seed.toml"}}) {
    RunResult R = runCudadeps(Args);
    EXPECT_EQ(R.Code, 0) << Args[0] << ": " << R.Err;
    EXPECT_THAT(R.Out, HasSubstr("  and flash-linear-attention[conv1d] needs "
                                 "causal-conv1d >=1.4.0\n"))
        << Args[0];
    EXPECT_THAT(R.Out, Not(HasSubstr("1!"))) << Args[0] << ":\n" << R.Out;
    EXPECT_THAT(R.Out, Not(HasSubstr("needs flash-linear-attention =")))
        << Args[0];
    // A pure-Python package has no strategies to tell apart.
    EXPECT_THAT(R.Out, Not(HasSubstr("flash-linear-attention[conv1d] any "
                                     "(prebuilt)")))
        << Args[0];
  }
}

// A pin on an installed distribution names the version installed.
TEST(Requirements, InstalledDistributionOutsideAPinIsNamed) {
  RunResult R = resolve(seedProject(), "seed");
  EXPECT_EQ(R.Code, 0) << R.Err;
  EXPECT_THAT(R.Out, HasSubstr("  not flash-linear-attention 0.6.0:\n"
                               "  because flash-linear-attention needs "
                               "transformers >=5.6.2,<6\n"
                               "  and transformers 5.2.0 is installed, which "
                               "is not >=5.6.2,<6\n"));
  EXPECT_THAT(R.Out, Not(HasSubstr("no version of transformers")));
}
