//===- HookTest.cpp - CudaDeps.cmake, find_package and the two examples ----===//
//
// The CMake module through find_package (from the build tree and from an
// install prefix), its re-run rule and its failure modes with the real
// cmake; then examples/cmake-project and examples/makefile-project built
// with the real cmake, make and the nvcc at /usr/local/cuda: the nvcc, host
// compiler and archs the builds used must be the ones cudadeps chose.
//
//===----------------------------------------------------------------------===//
#include "tests/support/FakeToolkit.h"
#include "tests/support/RunCli.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"

using namespace cudadeps::test;
using namespace llvm;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

const std::string Scenarios = CUDADEPS_FIXTURES_DIR "/scenarios";
const std::string RealNvcc = "/usr/local/cuda/bin/nvcc";

/// The environment of a configure: no toolchain variables of the caller,
/// a probe cache of the test's own.
std::map<std::string, std::string> cleanEnv(const TempDir &Dir) {
  return {{"CUDA_HOME", ""},          {"CUDA_PATH", ""},
          {"CUDACXX", ""},            {"CUDAHOSTCXX", ""},
          {"NVCC_CCBIN", ""},         {"CUDAARCHS", ""},
          {"CUDADEPS_FACTS", ""},     {"CUDADEPS_REGISTRY", ""},
          {"XDG_CACHE_HOME", Dir.sub("cache")}};
}

/// A project(NONE) that resolves the demo project with a facts file and
/// writes what the module set to values.txt.
struct ModuleProject {
  TempDir Dir{"cudadeps-module"};
  std::string Src = Dir.sub("src"), Bin = Dir.sub("bin");
  std::string Facts = Dir.sub("src/facts.toml");

  explicit ModuleProject(const std::string &FactsName,
                         const std::string &Extra = "REQUIRED") {
    writeFile(Facts, readWhole(Scenarios + "/" + FactsName + ".toml"));
    writeFile(Src + "/CMakeLists.txt",
              "cmake_minimum_required(VERSION 3.20)\n"
              "project(module_test NONE)\n"
              "find_package(cudadeps REQUIRED)\n"
              "cudadeps_resolve(MANIFEST " + Scenarios +
                  "/demo-project.toml FACTS facts.toml REGISTRY " + Scenarios +
                  "/registry " + Extra + ")\n"
              "file(WRITE ${CMAKE_BINARY_DIR}/values.txt "
              "\"${CUDADEPS_FOUND}|${CMAKE_CUDA_COMPILER}|"
              "${CMAKE_CUDA_HOST_COMPILER}|${CMAKE_CUDA_ARCHITECTURES}|"
              "${CUDADEPS_DEMO_EXT_STRATEGY}|${CUDADEPS_DEMO_EXT_VERSION}\")\n"
              "file(WRITE ${CMAKE_BINARY_DIR}/launcher.txt "
              "\"${CMAKE_CUDA_COMPILER_LAUNCHER}\")\n");
  }

  RunResult configure(const std::string &Prefix = CUDADEPS_BUILD_DIR) {
    return runProgram(findProgram("cmake"),
                      {"-S", Src, "-B", Bin, "-DCMAKE_PREFIX_PATH=" + Prefix},
                      cleanEnv(Dir));
  }
  std::string values() const { return readWhole(Bin + "/values.txt"); }
};

bool haveTools(std::initializer_list<const char *> Names, std::string &Why) {
  for (const char *N : Names)
    if (findProgram(N).empty()) {
      Why = std::string(N) + " is not on PATH";
      return false;
    }
  return true;
}

/// The decision `cudadeps resolve --format json` prints for MANIFEST.
struct Choice {
  std::string Nvcc, Cxx;
  std::vector<std::string> Archs;
};
Choice choiceFor(const std::string &Cudadeps, const std::string &Manifest,
                 const std::map<std::string, std::string> &Env) {
  Choice C;
  RunResult R = runProgram(Cudadeps, {"resolve", Manifest, "--arch", "sm_90",
                                      "--format", "json"},
                           Env);
  EXPECT_EQ(R.Code, 0) << R.Out << R.Err;
  Expected<json::Value> V = json::parse(R.Out);
  if (!V) {
    ADD_FAILURE() << toString(V.takeError());
    return C;
  }
  const json::Object *P =
      (*V->getAsObject()->getArray("packages"))[0].getAsObject();
  C.Nvcc = P->getObject("nvcc")->getString("path")->str();
  C.Cxx = P->getObject("compiler")->getString("path")->str();
  for (const json::Value &A : *P->getArray("archs"))
    C.Archs.push_back(A.getAsString()->str());
  return C;
}

/// Copies the files of a source directory (one level) into Dir.
void copyExample(StringRef Name, const std::string &To) {
  std::error_code EC;
  std::string From = CUDADEPS_SOURCE_DIR "/examples/" + Name.str();
  for (sys::fs::directory_iterator I(From, EC), E; I != E && !EC;
       I.increment(EC))
    writeFile(To + "/" + sys::path::filename(I->path()).str(),
              readWhole(I->path()));
}

} // namespace

TEST(CMakeModule, FindPackageFromTheBuildTreeSetsTheToolchain) {
  std::string Why;
  if (!haveTools({"cmake"}, Why))
    GTEST_SKIP() << Why;
  ModuleProject P("build-farm-no-gpu", "REQUIRED TARGET_ARCHS 90 sm_120");
  RunResult R = P.configure();
  ASSERT_EQ(R.Code, 0) << R.Out << R.Err;
  EXPECT_EQ(P.values(), "TRUE|/usr/local/cuda-12.8/bin/nvcc|/usr/bin/g++-13|"
                        "90;120|source|2.0.0");
  EXPECT_THAT(R.Out, HasSubstr("demo-ext  2.0.0  build from source"));
}

TEST(CMakeModule, PackagesAndLauncherReachCudadeps) {
  std::string Why;
  if (!haveTools({"cmake"}, Why))
    GTEST_SKIP() << Why;
  TempDir Tools("cudadeps-module-tools");
  std::string Launcher = Tools.sub("ccache");
  writeFile(Launcher, "#!/bin/sh\nexec \"$@\"\n", /*Executable=*/true);
  ModuleProject P("build-farm-no-gpu", "REQUIRED TARGET_ARCHS 90 PACKAGES "
                                       "demo-ext LAUNCHER " + Launcher);
  RunResult R = P.configure();
  ASSERT_EQ(R.Code, 0) << R.Out << R.Err;
  EXPECT_EQ(readWhole(P.Bin + "/launcher.txt"), Launcher);
  ModuleProject Bad("build-farm-no-gpu", "PACKAGES demo-txt");
  R = Bad.configure();
  EXPECT_NE(R.Code, 0);
  EXPECT_THAT(R.Err, HasSubstr("cudadeps resolve failed (2)"));
  EXPECT_THAT(R.Err, HasSubstr("--package 'demo-txt' is not part of this "
                               "resolution"));
}

TEST(CMakeModule, RerunsOnlyWhenWhatTheDecisionRestsOnChanged) {
  std::string Why;
  if (!haveTools({"cmake"}, Why))
    GTEST_SKIP() << Why;
  ModuleProject P("build-farm-no-gpu", "REQUIRED TARGET_ARCHS 90");
  ASSERT_EQ(P.configure().Code, 0);
  RunResult Again = P.configure();
  ASSERT_EQ(Again.Code, 0) << Again.Err;
  EXPECT_THAT(Again.Out, HasSubstr("demo-project.toml unchanged (resolved)"));
  EXPECT_EQ(P.values(), "TRUE|/usr/local/cuda-12.8/bin/nvcc|/usr/bin/g++-13|"
                        "90|source|2.0.0");

  // The facts file changes (another size): cudadeps runs again.
  std::string Facts = readWhole(P.Facts);
  size_t At = Facts.find("/usr/bin/g++-13");
  ASSERT_NE(At, std::string::npos);
  Facts.replace(At, 15, "/opt/gcc13/bin/g++");
  writeFile(P.Facts, Facts);
  RunResult Changed = P.configure();
  ASSERT_EQ(Changed.Code, 0) << Changed.Err;
  EXPECT_THAT(Changed.Out, Not(HasSubstr("unchanged")));
  EXPECT_EQ(P.values(), "TRUE|/usr/local/cuda-12.8/bin/nvcc|"
                        "/opt/gcc13/bin/g++|90|source|2.0.0");

  // The facts file is a configure dependency: the build system re-runs
  // cmake when it changes.
  std::string Deps = readWhole(P.Bin + "/CMakeFiles/Makefile.cmake");
  EXPECT_THAT(Deps, HasSubstr(P.Facts));
  EXPECT_THAT(Deps, HasSubstr(Scenarios + "/registry/demo-ext.toml"));
}

TEST(CMakeModule, NoConfigurationStopsWithTheExplanationWhenRequired) {
  std::string Why;
  if (!haveTools({"cmake"}, Why))
    GTEST_SKIP() << Why;
  ModuleProject P("rtx5090-only-12.4", "REQUIRED");
  RunResult R = P.configure();
  EXPECT_NE(R.Code, 0);
  EXPECT_THAT(R.Err, HasSubstr("cudadeps: no buildable CUDA configuration"));
  EXPECT_THAT(R.Err, HasSubstr("the target sm_120 (NVIDIA GeForce RTX 5090) "
                               "needs nvcc >=12.8"));
  EXPECT_FALSE(sys::fs::exists(P.Bin + "/values.txt"));

  ModuleProject Optional("rtx5090-only-12.4", "");
  R = Optional.configure();
  EXPECT_EQ(R.Code, 0) << R.Err;
  EXPECT_THAT(R.Err, HasSubstr("CMake Warning"));
  EXPECT_THAT(R.Err, HasSubstr("needs nvcc >=12.8"));
  EXPECT_EQ(Optional.values(), "FALSE|||||");
}

// Once CUDA is enabled its compiler is fixed (what enable_language(CUDA)
// sets is simulated: a real one costs seconds of compiler detection).
TEST(CMakeModule, TooLateIsAnError) {
  std::string Why;
  if (!haveTools({"cmake"}, Why))
    GTEST_SKIP() << Why;
  TempDir Dir("cudadeps-module-late");
  writeFile(Dir.sub("src/CMakeLists.txt"),
            "cmake_minimum_required(VERSION 3.20)\n"
            "project(late NONE)\n"
            "set(CMAKE_CUDA_COMPILER_LOADED 1)\n"
            "set(CMAKE_CUDA_COMPILER /opt/other/nvcc)\n"
            "find_package(cudadeps REQUIRED)\n"
            "cudadeps_resolve(MANIFEST " CUDADEPS_SOURCE_DIR
            "/examples/cmake-project/cudadeps.toml)\n");
  RunResult R = runProgram(findProgram("cmake"),
                           {"-S", Dir.sub("src"), "-B", Dir.sub("bin"),
                            "-DCMAKE_PREFIX_PATH=" CUDADEPS_BUILD_DIR},
                           cleanEnv(Dir));
  EXPECT_NE(R.Code, 0);
  EXPECT_THAT(R.Err, HasSubstr("CUDA is already enabled (with "
                               "/opt/other/nvcc)"));
  EXPECT_THAT(R.Err, HasSubstr("enable_language(CUDA)"));
}

TEST(CMakeModule, InputErrorsAlwaysStop) {
  std::string Why;
  if (!haveTools({"cmake"}, Why))
    GTEST_SKIP() << Why;
  ModuleProject P("build-farm-no-gpu", "TARGET_ARCHS sm90");
  RunResult R = P.configure();
  EXPECT_NE(R.Code, 0);
  EXPECT_THAT(R.Err, HasSubstr("cudadeps resolve failed (2)"));
  EXPECT_THAT(R.Err, HasSubstr("invalid --arch 'sm90'"));
}

// The installed package, and examples/cmake-project built with the real
// nvcc: CMake's nvcc, host compiler and archs are cudadeps' choice.
TEST(Examples, CMakeProjectBuildsWithTheChosenToolchain) {
  std::string Why;
  if (!haveTools({"cmake", "ninja"}, Why))
    GTEST_SKIP() << Why;
  if (!sys::fs::can_execute(RealNvcc))
    GTEST_SKIP() << "no CUDA toolkit at /usr/local/cuda";
  TempDir Dir("cudadeps-example");
  std::string Prefix = Dir.sub("prefix"), Bin = Dir.sub("bin");
  std::string CMake = findProgram("cmake");
  RunResult I = runProgram(CMake, {"--install", CUDADEPS_BUILD_DIR,
                                   "--prefix", Prefix});
  ASSERT_EQ(I.Code, 0) << I.Out << I.Err;
  ASSERT_TRUE(sys::fs::exists(Prefix + "/share/cudadeps/cmake/"
                              "cudadepsConfig.cmake"));
  std::map<std::string, std::string> Env = cleanEnv(Dir);
  RunResult C = runProgram(
      CMake, {"-S", CUDADEPS_SOURCE_DIR "/examples/cmake-project", "-B", Bin,
              "-G", "Ninja", "-DCMAKE_PREFIX_PATH=" + Prefix,
              "-DSAXPY_TARGET_ARCHS=90"},
      Env);
  ASSERT_EQ(C.Code, 0) << C.Out << C.Err;
  RunResult B = runProgram(CMake, {"--build", Bin}, Env);
  ASSERT_EQ(B.Code, 0) << B.Out << B.Err;

  Choice Want = choiceFor(Prefix + "/bin/cudadeps",
                          CUDADEPS_SOURCE_DIR "/examples/cmake-project/"
                                              "cudadeps.toml",
                          Env);
  EXPECT_EQ(Want.Archs, std::vector<std::string>{"sm_90"});
  std::string Detected;
  std::error_code EC;
  for (sys::fs::directory_iterator D(Bin + "/CMakeFiles", EC), E; D != E && !EC;
       D.increment(EC))
    if (sys::fs::exists(D->path() + "/CMakeCUDACompiler.cmake"))
      Detected = readWhole(D->path() + "/CMakeCUDACompiler.cmake");
  EXPECT_THAT(Detected,
              HasSubstr("set(CMAKE_CUDA_COMPILER \"" + Want.Nvcc + "\")"));
  EXPECT_THAT(Detected,
              HasSubstr("set(CMAKE_CUDA_HOST_COMPILER \"" + Want.Cxx + "\")"));
  // The compile command passes that host compiler and that arch only.
  EXPECT_THAT(readWhole(Bin + "/CMakeFiles/rules.ninja"),
              HasSubstr(Want.Nvcc + " -forward-unknown-to-host-compiler "
                                    "-ccbin=" + Want.Cxx));
  std::string Ninja = readWhole(Bin + "/build.ninja");
  EXPECT_THAT(Ninja, HasSubstr("--generate-code=arch=compute_90,code=[compute_"
                               "90,sm_90]"));
  // Compile and link, each with that one arch.
  EXPECT_EQ(StringRef(Ninja).count("--generate-code="), 2u);
  EXPECT_EQ(StringRef(Ninja).count("--generate-code=arch=compute_90,code=["
                                   "compute_90,sm_90]"),
            2u);
  RunResult Run = runProgram(Bin + "/saxpy", {});
  EXPECT_EQ(Run.Code, 0) << Run.Out;
  EXPECT_THAT(Run.Out, HasSubstr("saxpy: "));
}

// examples/makefile-project with the real nvcc: make runs the hook, then
// compiles with exactly what cudadeps.mk says; without a toolkit it stops
// with the explanation and leaves no cudadeps.mk.
TEST(Examples, MakefileProjectBuildsWithTheChosenToolchain) {
  std::string Why;
  if (!haveTools({"make"}, Why))
    GTEST_SKIP() << Why;
  if (!sys::fs::can_execute(RealNvcc))
    GTEST_SKIP() << "no CUDA toolkit at /usr/local/cuda";
  TempDir Dir("cudadeps-example");
  std::string Src = Dir.sub("src");
  copyExample("makefile-project", Src);
  std::map<std::string, std::string> Env = cleanEnv(Dir);
  std::string Make = findProgram("make");
  std::vector<std::string> Args{"-C", Src, "CUDADEPS=" CUDADEPS_BINARY,
                                "CUDADEPS_FLAGS=--arch sm_90"};
  RunResult M = runProgram(Make, Args, Env);
  ASSERT_EQ(M.Code, 0) << M.Out << M.Err;
  Choice Want = choiceFor(CUDADEPS_BINARY, Src + "/cudadeps.toml", Env);
  EXPECT_THAT(M.Out, HasSubstr(Want.Nvcc + " -ccbin " + Want.Cxx +
                               " -gencode arch=compute_90,code=sm_90 -o saxpy "
                               "saxpy.cu"));
  RunResult Run = runProgram(Src + "/saxpy", {});
  EXPECT_EQ(Run.Code, 0) << Run.Out;

  // Nothing changed: nothing to do, the hook is not run again.
  RunResult Again = runProgram(Make, Args, Env);
  EXPECT_EQ(Again.Code, 0) << Again.Err;
  EXPECT_THAT(Again.Out, Not(HasSubstr("resolve")));
  EXPECT_THAT(Again.Out, HasSubstr("is up to date"));

  // The manifest changes: the hook runs again and the program is rebuilt.
  std::string Manifest = readWhole(Src + "/cudadeps.toml");
  writeFile(Src + "/cudadeps.toml", Manifest + "\n# edited\n");
  RunResult Edited = runProgram(Make, Args, Env);
  EXPECT_EQ(Edited.Code, 0) << Edited.Err;
  EXPECT_THAT(Edited.Out, HasSubstr("resolve cudadeps.toml --emit make"));

  // No toolkit: make stops with cudadeps' explanation, nothing is written.
  ASSERT_EQ(runProgram(Make, {"-C", Src, "clean"}, Env).Code, 0);
  RunResult None = runProgram(
      Make, {"-C", Src, "CUDADEPS=" CUDADEPS_BINARY,
             "CUDADEPS_FLAGS=--arch sm_90 --set nvcc="},
      Env);
  EXPECT_NE(None.Code, 0);
  EXPECT_THAT(None.Out, HasSubstr("unsatisfiable: no buildable configuration"));
  EXPECT_THAT(None.Out, HasSubstr("no nvcc"));
  EXPECT_FALSE(sys::fs::exists(Src + "/cudadeps.mk"));
  EXPECT_FALSE(sys::fs::exists(Src + "/saxpy"));
}
