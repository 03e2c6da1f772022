//===- EmitTest.cpp - resolve --emit as a pre-build hook a build relies on --===//
//
// An unchanged emit keeps the file (and its mtime); no buildable
// configuration writes nothing and exits 1; --format json holds the emitted
// text; every decision has its CUDADEPS_<PACKAGE>_* variables.
//
//===----------------------------------------------------------------------===//
#include "tests/support/FakeToolkit.h"
#include "tests/support/RunCli.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

#include "llvm/Support/Chrono.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Process.h"

using namespace cudadeps::test;
using namespace llvm;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

const std::string Scenarios = CUDADEPS_FIXTURES_DIR "/scenarios";

RunResult resolveDemo(const std::string &FactsName,
                      std::vector<std::string> Extra) {
  std::vector<std::string> Args{"resolve", Scenarios + "/demo-project.toml",
                                "--registry", Scenarios + "/registry",
                                "--facts",
                                Scenarios + "/" + FactsName + ".toml"};
  Args.insert(Args.end(), Extra.begin(), Extra.end());
  return runCudadeps(Args);
}

sys::TimePoint<> mtimeOf(const std::string &Path) {
  sys::fs::file_status St;
  EXPECT_FALSE(sys::fs::status(Path, St)) << Path;
  return St.getLastModificationTime();
}

/// Sets the mtime of Path to a day ago, so a rewrite is visible.
sys::TimePoint<> ageFile(const std::string &Path) {
  int FD;
  EXPECT_FALSE(sys::fs::openFileForWrite(Path, FD, sys::fs::CD_OpenExisting,
                                         sys::fs::OF_Append));
  sys::TimePoint<> Old = std::chrono::time_point_cast<std::chrono::seconds>(
      std::chrono::system_clock::now() - std::chrono::hours(24));
  EXPECT_FALSE(sys::fs::setLastAccessAndModificationTime(FD, Old));
  sys::Process::SafelyCloseFileDescriptor(FD);
  return mtimeOf(Path);
}

} // namespace

TEST(Emit, UnchangedContentKeepsTheFileAndItsMtime) {
  TempDir Dir("cudadeps-emit");
  std::string File = Dir.sub("toolchain.cmake");
  RunResult First = resolveDemo("build-farm-no-gpu",
                                {"--arch", "sm_90", "--emit", "cmake", "-o",
                                 File});
  ASSERT_EQ(First.Code, 0) << First.Err;
  EXPECT_THAT(First.Err, HasSubstr("cudadeps: wrote " + File));
  std::string Text = readWhole(File);
  EXPECT_THAT(Text, HasSubstr("set(CMAKE_CUDA_ARCHITECTURES \"90\")"));
  sys::TimePoint<> Old = ageFile(File);

  RunResult Again = resolveDemo("build-farm-no-gpu",
                                {"--arch", "sm_90", "--emit", "cmake", "-o",
                                 File});
  ASSERT_EQ(Again.Code, 0) << Again.Err;
  EXPECT_THAT(Again.Err, HasSubstr(File + " is up to date"));
  EXPECT_EQ(mtimeOf(File), Old);
  EXPECT_EQ(readWhole(File), Text);

  // A different decision rewrites it.
  RunResult Other = resolveDemo("build-farm-no-gpu",
                                {"--arch", "sm_80", "--emit", "cmake", "-o",
                                 File});
  ASSERT_EQ(Other.Code, 0) << Other.Err;
  EXPECT_NE(mtimeOf(File), Old);
  EXPECT_THAT(readWhole(File), HasSubstr("set(CMAKE_CUDA_ARCHITECTURES \"80\")"));
  // No temporary file is left behind.
  std::error_code EC;
  unsigned Entries = 0;
  for (sys::fs::directory_iterator I(Dir.path(), EC), E; I != E && !EC;
       I.increment(EC))
    ++Entries;
  EXPECT_EQ(Entries, 1u);
}

TEST(Emit, UnsatisfiableWritesNothingAndExitsOne) {
  TempDir Dir("cudadeps-emit");
  for (const char *Kind : {"cmake", "make", "env"}) {
    SCOPED_TRACE(Kind);
    std::string File = Dir.sub(std::string("hook.") + Kind);
    RunResult R = resolveDemo("rtx5090-only-12.4", {"--emit", Kind, "-o", File});
    EXPECT_EQ(R.Code, 1) << R.Err;
    EXPECT_FALSE(sys::fs::exists(File));
    EXPECT_THAT(R.Out, HasSubstr("unsatisfiable: no buildable configuration"));
    EXPECT_THAT(R.Err, HasSubstr("nothing written to " + File));

    // An existing file (from an earlier, satisfiable run) is left as it was.
    writeFile(File, "earlier\n");
    R = resolveDemo("rtx5090-only-12.4", {"--emit", Kind, "-o", File});
    EXPECT_EQ(R.Code, 1);
    EXPECT_EQ(readWhole(File), "earlier\n");

    // Without -o, stdout stays empty and the report goes to stderr.
    R = resolveDemo("rtx5090-only-12.4", {"--emit", Kind});
    EXPECT_EQ(R.Code, 1);
    EXPECT_EQ(R.Out, "");
    EXPECT_THAT(R.Err, HasSubstr("unsatisfiable"));
  }
}

TEST(Emit, JsonWithoutOutputIsOneDocumentHoldingTheText) {
  RunResult Plain = resolveDemo("rtx5090-two-toolkits", {"--emit", "make"});
  ASSERT_EQ(Plain.Code, 0) << Plain.Err;
  RunResult R = resolveDemo("rtx5090-two-toolkits",
                            {"--emit", "make", "--format", "json"});
  ASSERT_EQ(R.Code, 0) << R.Err;
  Expected<json::Value> V = json::parse(R.Out);
  ASSERT_TRUE(bool(V)) << toString(V.takeError()) << R.Out;
  const json::Object *Emit = V->getAsObject()->getObject("emit");
  ASSERT_TRUE(Emit);
  EXPECT_EQ(Emit->getString("kind"), StringRef("make"));
  EXPECT_EQ(Emit->getString("text"), StringRef(Plain.Out));
  EXPECT_TRUE(Emit->get("file")->getAsNull());
  EXPECT_EQ(V->getAsObject()->getString("status"), StringRef("resolved"));
  EXPECT_THAT(R.Err, Not(HasSubstr("resolved: 1 package")));

  R = resolveDemo("rtx5090-only-12.4", {"--emit", "make", "--format", "json"});
  EXPECT_EQ(R.Code, 1);
  V = json::parse(R.Out);
  ASSERT_TRUE(bool(V)) << toString(V.takeError()) << R.Out;
  EXPECT_TRUE(V->getAsObject()->getObject("emit")->get("text")->getAsNull());
}

TEST(Emit, JsonWithOutputSaysWhetherTheFileChanged) {
  TempDir Dir("cudadeps-emit");
  std::string File = Dir.sub("hook.mk");
  for (bool Expected : {true, false}) {
    RunResult R = resolveDemo("rtx5090-two-toolkits",
                              {"--emit", "make", "-o", File, "--format",
                               "json"});
    ASSERT_EQ(R.Code, 0) << R.Err;
    llvm::Expected<json::Value> V = json::parse(R.Out);
    ASSERT_TRUE(bool(V)) << toString(V.takeError());
    const json::Object *Emit = V->getAsObject()->getObject("emit");
    ASSERT_TRUE(Emit);
    EXPECT_EQ(Emit->getString("file"), StringRef(File));
    EXPECT_EQ(Emit->getBoolean("changed"), Expected);
    EXPECT_EQ(Emit->getString("text"), StringRef(readWhole(File)));
  }
}

TEST(Emit, CMakeHasAVariableGroupPerDecision) {
  RunResult R = runCudadeps(
      {"resolve", CUDADEPS_SOURCE_DIR "/examples/qwen35-training/cudadeps.toml",
       "--facts", Scenarios + "/seed.toml", "--emit", "cmake"});
  ASSERT_EQ(R.Code, 0) << R.Err;
  EXPECT_THAT(R.Out, HasSubstr("set(CUDADEPS_STATUS \"fallback\")"));
  // flash-linear-attention pulls fla-core (its kernels) of the same version.
  EXPECT_THAT(R.Out, HasSubstr("set(CUDADEPS_PACKAGES "
                               "\"flash-linear-attention;causal-conv1d;"
                               "fla-core\")"));
  EXPECT_THAT(R.Out, HasSubstr("set(CUDADEPS_CAUSAL_CONV1D_STRATEGY "
                               "\"fallback\")"));
  EXPECT_THAT(R.Out, HasSubstr("set(CUDADEPS_CAUSAL_CONV1D_FALLBACK "
                               "\"torch-conv\")"));
  EXPECT_THAT(R.Out, HasSubstr("set(CUDADEPS_FLASH_LINEAR_ATTENTION_STRATEGY "
                               "\"no-build\")"));
  EXPECT_THAT(R.Out, HasSubstr("set(CUDADEPS_FLASH_LINEAR_ATTENTION_VERSION "
                               "\"0.5.2\")"));
  // No source build: no toolchain.
  EXPECT_THAT(R.Out, Not(HasSubstr("CMAKE_CUDA_COMPILER")));

  R = resolveDemo("rtx5090-two-toolkits", {"--emit", "make"});
  EXPECT_THAT(R.Out, HasSubstr("CUDADEPS_DEMO_EXT_STRATEGY := source\n"));
  EXPECT_THAT(R.Out, HasSubstr("CUDADEPS_DEMO_EXT_VERSION := 2.0.0\n"));
  EXPECT_THAT(R.Out, HasSubstr("CUDADEPS_DEMO_EXT_ARCHS := sm_120\n"));
  EXPECT_THAT(R.Out, HasSubstr("CUDADEPS_DEMO_EXT_FALLBACK :=\n"));
}

TEST(Emit, PackageOptionIsChecked) {
  RunResult R = resolveDemo("rtx5090-two-toolkits",
                            {"--emit", "env", "--package", "demo-txt"});
  EXPECT_EQ(R.Code, 2);
  EXPECT_THAT(R.Err, HasSubstr("--package 'demo-txt' is not part of this "
                               "resolution; did you mean 'demo-ext'?"));
  R = resolveDemo("rtx5090-two-toolkits", {"--package", "demo-ext"});
  EXPECT_EQ(R.Code, 2);
  EXPECT_THAT(R.Err, HasSubstr("--package needs --emit"));
  R = resolveDemo("rtx5090-two-toolkits",
                  {"--emit", "env", "--package", "Demo_Ext"});
  EXPECT_EQ(R.Code, 0) << R.Err;
  EXPECT_THAT(R.Out, HasSubstr("export TORCH_CUDA_ARCH_LIST=12.0  #"));
}

namespace {

/// Two source builds that need different environments: a (a knob, the
/// default memory per job) and b (64 GiB per job).
struct TwoPackages {
  TempDir Dir{"cudadeps-emit-two"};
  std::string Project = Dir.sub("project.toml");
  TwoPackages() {
    writeFile(Project, "schema = 1\n[project]\nname = \"two\"\n"
                       "requires = [\"pkg-a\", \"pkg-b\"]\n");
    writeFile(Dir.sub("registry/a.toml"),
              "schema = 1\n[package]\nname = \"pkg-a\"\n"
              "git = \"https://example.invalid/a.git\"\nbuild = \"cmake\"\n"
              "[requires]\nnvcc = \">=12\"\n"
              "[[release]]\nversion = \"1.0\"\narchs = [\"sm_90\"]\n"
              "[build.env]\nA_FORCE_BUILD = \"TRUE\"\n"
              "A_ARCHS = \"{arch_numbers}\"\n");
    writeFile(Dir.sub("registry/b.toml"),
              "schema = 1\n[package]\nname = \"pkg-b\"\n"
              "git = \"https://example.invalid/b.git\"\nbuild = \"cmake\"\n"
              "[requires]\nnvcc = \">=12\"\n"
              "[build]\nmemory_per_job_gib = 64\n"
              "[[release]]\nversion = \"2.0\"\n"
              "archs = [\"sm_80\", \"sm_90\"]\n");
  }
  RunResult emit(std::vector<std::string> Extra) {
    std::vector<std::string> Args{
        "resolve",  Project, "--registry", Dir.sub("registry"), "--facts",
        Scenarios + "/build-farm-no-gpu.toml", "--arch", "sm_80", "--arch",
        "sm_90", "--emit", "env"};
    Args.insert(Args.end(), Extra.begin(), Extra.end());
    return runCudadeps(Args);
  }
  /// Sources the emitted file, runs \p Before, prints $Var.
  std::string read(const std::string &File, const std::string &Before,
                   const std::string &Var) {
    RunResult R = runProgram(
        "/bin/sh", {"-c", ". \"$1\" && " + Before + " printf '%s' \"$" + Var +
                              "\"",
                    "sh", File});
    EXPECT_EQ(R.Code, 0) << R.Err;
    return R.Out;
  }
};

} // namespace

TEST(Emit, EnvHasEachBuildsEnvironmentInAFunctionWhenTheyDiffer) {
  TwoPackages T;
  std::string File = T.Dir.sub("build.env");
  RunResult R = T.emit({"-o", File});
  ASSERT_EQ(R.Code, 0) << R.Out << R.Err;
  std::string Text = readWhole(File);
  // Shared: the toolkit and compiler; per package: knobs, archs, jobs.
  EXPECT_THAT(Text, HasSubstr("export CUDA_HOME=/usr/local/cuda-12.8  # the "
                              "chosen nvcc 12.8.93\n"));
  EXPECT_THAT(Text, HasSubstr("cudadeps_env_pkg_a() {\n"));
  EXPECT_THAT(Text, HasSubstr("cudadeps_env_pkg_b() {\n"));
  EXPECT_EQ(T.read(File, "", "NVCC_CCBIN"), "/usr/bin/g++-13");
  EXPECT_EQ(T.read(File, "", "A_FORCE_BUILD"), "");
  EXPECT_EQ(T.read(File, "cudadeps_env_pkg_a &&", "A_FORCE_BUILD"), "TRUE");
  EXPECT_EQ(T.read(File, "cudadeps_env_pkg_a &&", "A_ARCHS"), "90");
  EXPECT_EQ(T.read(File, "cudadeps_env_pkg_a &&", "TORCH_CUDA_ARCH_LIST"),
            "9.0");
  EXPECT_EQ(T.read(File, "cudadeps_env_pkg_a &&", "MAX_JOBS"), "32");
  EXPECT_EQ(T.read(File, "cudadeps_env_pkg_b &&", "TORCH_CUDA_ARCH_LIST"),
            "8.0;9.0");
  // 256 GiB / 64 GiB per job.
  EXPECT_EQ(T.read(File, "cudadeps_env_pkg_b &&", "MAX_JOBS"), "4");
  EXPECT_THAT(Text, HasSubstr("export MAX_JOBS=4  # 32 CPUs, 256.0 GiB "
                              "memory / 64 GiB per job"));

  // --package: one block, exported directly.
  R = T.emit({"--package", "pkg-b"});
  ASSERT_EQ(R.Code, 0) << R.Err;
  EXPECT_THAT(R.Out, HasSubstr("export MAX_JOBS=4"));
  EXPECT_THAT(R.Out, HasSubstr("export TORCH_CUDA_ARCH_LIST='8.0;9.0'"));
  EXPECT_THAT(R.Out, Not(HasSubstr("A_FORCE_BUILD")));
  EXPECT_THAT(R.Out, Not(HasSubstr("()")));
}

TEST(Emit, LauncherIsEmittedWhenChosen) {
  TempDir Dir("cudadeps-emit");
  std::string Fake = Dir.sub("bin/ccache");
  writeFile(Fake, "#!/bin/sh\nexec \"$@\"\n", /*Executable=*/true);
  RunResult R = resolveDemo("rtx5090-two-toolkits",
                            {"--emit", "cmake", "--launcher", Fake});
  ASSERT_EQ(R.Code, 0) << R.Err;
  EXPECT_THAT(R.Out, HasSubstr("set(CMAKE_CUDA_COMPILER_LAUNCHER \"" + Fake +
                               "\")"));
  R = runCudadeps({"resolve", Scenarios + "/demo-project.toml", "--registry",
                   Scenarios + "/registry", "--facts",
                   Scenarios + "/rtx5090-two-toolkits.toml", "--emit", "env",
                   "--launcher", "ccache"},
                  {{"PATH", Dir.sub("bin") + ":/usr/bin:/bin"}});
  ASSERT_EQ(R.Code, 0) << R.Err;
  // demo-ext is a torch extension: torch's PYTORCH_NVCC carries it.
  EXPECT_THAT(R.Out, HasSubstr("export PYTORCH_NVCC='" + Fake +
                               " /usr/local/cuda-12.8/bin/nvcc'"));
  R = resolveDemo("rtx5090-two-toolkits",
                  {"--emit", "cmake", "--launcher", "no-such-launcher"});
  EXPECT_EQ(R.Code, 2);
  EXPECT_THAT(R.Err, HasSubstr("the launcher 'no-such-launcher' was not "
                               "found on PATH"));
  R = resolveDemo("rtx5090-two-toolkits", {"--emit", "cmake"});
  EXPECT_THAT(R.Out, Not(HasSubstr("LAUNCHER")));
}
