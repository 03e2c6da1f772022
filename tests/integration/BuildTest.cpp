// cudadeps build / install end to end: local git repositories made by the
// test, the real nvcc and CMake where the machine has them, a fake Python
// that records what it was asked.
#include "core/inspect/SharedObject.h"
#include "tests/support/GitRepo.h"
#include "tests/support/RunCli.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace cudadeps;
using namespace cudadeps::test;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

const char *RealNvcc = "/usr/local/cuda/bin/nvcc";

/// Runs a tool and returns its stdout, "" when it cannot run.
std::string output(std::vector<std::string> Argv) {
  ProcessRequest R;
  R.Argv = std::move(Argv);
  R.Timeout = std::chrono::seconds(60);
  RealProcessRunner Runner;
  auto Res = Runner.run(R);
  if (!Res) {
    llvm::consumeError(Res.takeError());
    return {};
  }
  return Res->ExitCode == 0 ? Res->Out : std::string();
}

/// "13.0.88" from nvcc --version.
std::string nvccVersion(llvm::StringRef Nvcc) {
  std::string Out = output({Nvcc.str(), "--version"});
  size_t V = Out.rfind(", V");
  if (V == std::string::npos)
    return {};
  return llvm::StringRef(Out).substr(V + 3).take_until(
      [](char C) { return C == '\n' || C == ' '; }).str();
}

class BuildTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_TRUE(Root.ok());
    Env["XDG_CACHE_HOME"] = Root.sub("cache");
    Env["HOME"] = Root.sub("home");
    Env["CUDADEPS_REGISTRY"] = Root.sub("registry");
    Env["CUDADEPS_FACTS"] = "";
    ASSERT_TRUE(makeDirs(Root.sub("registry")));
    Cache = Root.sub("cache/cudadeps");
  }

  RunResult cudadeps(std::vector<std::string> Args) {
    return runCudadeps(Args, Env, 300);
  }

  /// Trusted entries: builds/<key> directories with an entry.json.
  std::vector<std::string> entries() {
    std::vector<std::string> Out;
    std::error_code EC;
    for (llvm::sys::fs::directory_iterator It(Cache + "/builds", EC), End;
         !EC && It != End; It.increment(EC))
      if (llvm::sys::fs::exists(It->path() + "/entry.json"))
        Out.push_back(It->path());
    return Out;
  }
  std::vector<std::string> leftovers() {
    std::vector<std::string> Out;
    std::error_code EC;
    for (llvm::sys::fs::directory_iterator It(Cache + "/builds", EC), End;
         !EC && It != End; It.increment(EC))
      if (llvm::sys::path::filename(It->path()).startswith(".tmp-"))
        Out.push_back(It->path());
    return Out;
  }

  /// A command-kind package whose build.sh is \p Script, with facts.
  void scriptPackage(llvm::StringRef Script, llvm::StringRef Knobs = {}) {
    ASSERT_TRUE(makeScriptProject(Root.sub("script"), Root.sub("home"),
                                  Script));
    ASSERT_TRUE(writeFile(Root.sub("m.toml"),
                          "schema = 1\n[package]\nname = \"scripted\"\n"
                          "git = \"" + Root.sub("script") +
                              "\"\nbuild = \"command\"\n[requires]\n"
                              "nvcc = \">=12\"\n[[release]]\nversion = "
                              "\"1.0\"\narchs = [\"sm_80\", \"sm_90\"]\n"
                              "[build]\ncommand = [\"./build.sh\", \"{out}\", "
                              "\"{archs}\"]\n[build.env]\n" + Knobs.str()));
    ASSERT_TRUE(writeFile(Root.sub("facts.toml"),
                          buildFacts("/opt/fake-cuda/bin/nvcc", "13.0.88",
                                     "/usr/bin/g++", "12.2.0")));
  }

  TempDir Root{"cudadeps-build"};
  std::map<std::string, std::string> Env;
  std::string Cache;
};

TEST_F(BuildTest, CMakeProjectCompiledForTheRequestedArchOnlyThenCacheHit) {
  if (!llvm::sys::fs::can_execute(RealNvcc))
    GTEST_SKIP() << "no real toolkit at " << RealNvcc;
  std::string Cmake = findProgramInPath("cmake", std::getenv("PATH"));
  if (Cmake.empty())
    GTEST_SKIP() << "no cmake on PATH";
  std::string Ver = nvccVersion(RealNvcc);
  std::string Gxx = findProgramInPath("g++", std::getenv("PATH"));
  std::string GxxVer =
      llvm::StringRef(output({Gxx, "-dumpfullversion"})).trim().str();
  ASSERT_FALSE(Ver.empty());
  ASSERT_FALSE(GxxVer.empty());
  KernelProject P;
  ASSERT_TRUE(makeKernelProject(Root.path(), Root.sub("home"), P));
  ASSERT_TRUE(writeFile(Root.sub("facts.toml"),
                        buildFacts(RealNvcc, Ver, Gxx, GxxVer)));
  ASSERT_TRUE(writeFile(Root.sub("m.toml"),
                        "schema = 1\n[package]\nname = \"kernel\"\ngit = \"" +
                            P.Repo +
                            "\"\nbuild = \"cmake\"\n[requires]\nnvcc = "
                            "\">=12\"\n[[release]]\nversion = \"1.1\"\narchs "
                            "= [\"sm_80\", \"sm_90\", \"sm_120\"]\n"));
  std::vector<std::string> Args = {"build", Root.sub("m.toml"), "--facts",
                                   Root.sub("facts.toml"), "--arch", "sm_90",
                                   "--launcher", "none"};
  RunResult R = cudadeps(Args);
  ASSERT_EQ(R.Code, 0) << R.Out << R.Err;
  EXPECT_THAT(R.Out, HasSubstr("kernel 1.1: built for sm_90"));
  EXPECT_THAT(R.Err, HasSubstr("at v1.1 (" + P.CommitV11.substr(0, 12)));
  ASSERT_EQ(entries().size(), 1u);
  std::string Lib = entries()[0] + "/out/lib/libkernel.so";
  ASSERT_TRUE(llvm::sys::fs::exists(Lib)) << R.Out;
  // The device code in the library: sm_90 only (CMake adds compute_90 PTX).
  auto SO = readSharedObject(Lib, ReadDeviceCode);
  ASSERT_TRUE(bool(SO)) << llvm::toString(SO.takeError());
  std::vector<std::string> Cubins, Ptx;
  for (const FatbinEntry &E : SO->DeviceCode)
    (E.What == FatbinEntry::Kind::Cubin ? Cubins : Ptx).push_back(E.name());
  EXPECT_THAT(Cubins, ::testing::ElementsAre("sm_90"));
  EXPECT_THAT(Ptx, ::testing::Each("compute_90"));
  // cuobjdump agrees, where the toolkit has it.
  std::string Cuobjdump = "/usr/local/cuda/bin/cuobjdump";
  if (llvm::sys::fs::can_execute(Cuobjdump)) {
    std::string Elf = output({Cuobjdump, "--list-elf", Lib});
    EXPECT_THAT(Elf, HasSubstr("sm_90"));
    EXPECT_THAT(Elf, Not(HasSubstr("sm_80")));
  }
  EXPECT_TRUE(leftovers().empty());
  // The log of the build is kept in the entry and under logs/.
  EXPECT_THAT(readWhole(entries()[0] + "/build.log"),
              HasSubstr("CUDAARCHS=90"));

  RunResult Again = cudadeps(Args);
  ASSERT_EQ(Again.Code, 0) << Again.Out << Again.Err;
  EXPECT_THAT(Again.Out, HasSubstr("kernel 1.1: cache hit for sm_90"));
  EXPECT_EQ(entries().size(), 1u);
}

TEST_F(BuildTest, DryRunPrintsStepsArgvDirectoriesEnvironmentAndArchs) {
  scriptPackage("#!/bin/sh\nexit 0\n", "KNOB = \"{arch_numbers}\"\n");
  RunResult R = cudadeps({"build", Root.sub("m.toml"), "--facts",
                          Root.sub("facts.toml"), "--arch", "sm_90",
                          "--dry-run", "--jobs", "3", "--launcher", "none"});
  ASSERT_EQ(R.Code, 0) << R.Out << R.Err;
  EXPECT_THAT(R.Out, HasSubstr("scripted 1.0: build from source (command) "
                               "with nvcc 13.0.88 and gcc 12.2.0"));
  EXPECT_THAT(R.Out, HasSubstr("fetch: " + Root.sub("script") + " at tag v1.0"));
  EXPECT_THAT(R.Out, HasSubstr("archs: sm_90 of 2 release archs (about 50% "
                               "of the full build saved)"));
  EXPECT_THAT(R.Out, HasSubstr("jobs: 3 (--jobs 3)"));
  EXPECT_THAT(R.Out, HasSubstr("CUDA_HOME=/opt/fake-cuda"));
  EXPECT_THAT(R.Out, HasSubstr("PATH=/opt/fake-cuda/bin:$PATH"));
  EXPECT_THAT(R.Out, HasSubstr("NVCC_CCBIN=/usr/bin/g++"));
  EXPECT_THAT(R.Out, HasSubstr("KNOB=90  # [build.env] at"));
  EXPECT_THAT(R.Out, HasSubstr("MAX_JOBS=3"));
  EXPECT_THAT(R.Out, HasSubstr("step 1/1 command in " + Cache + "/src/"));
  EXPECT_THAT(R.Out, HasSubstr("./build.sh '" + Cache + "/builds/"));
  // Nothing was fetched or built.
  EXPECT_FALSE(llvm::sys::fs::exists(Cache + "/src"));
  EXPECT_TRUE(entries().empty());
}

TEST_F(BuildTest, FailingBuildExitsThreeWithCauseLogTailAndNoEntry) {
  scriptPackage("#!/bin/sh\necho compiling kernel.cu\n"
                "echo \"nvcc fatal   : Unsupported gpu architecture "
                "'compute_99'\" >&2\nexit 2\n");
  RunResult R = cudadeps({"build", Root.sub("m.toml"), "--facts",
                          Root.sub("facts.toml"), "--launcher", "none"});
  EXPECT_EQ(R.Code, 3) << R.Out << R.Err;
  EXPECT_THAT(R.Err, HasSubstr("building scripted 1.0 failed in step "
                               "'command' (exit code 2)"));
  EXPECT_THAT(R.Err, HasSubstr("cause: the toolkit cannot compile a "
                               "requested GPU architecture"));
  EXPECT_THAT(R.Err, HasSubstr("| compiling kernel.cu"));
  EXPECT_THAT(R.Err, HasSubstr("full log: " + Cache + "/logs/scripted-1.0-"));
  EXPECT_TRUE(entries().empty());
  EXPECT_TRUE(leftovers().empty());
}

TEST_F(BuildTest, CommandBuildGetsTheComputedEnvironmentAndRunsOffline) {
  scriptPackage("#!/bin/sh\nenv > \"$1/env.txt\"\necho \"$2\" > "
                "\"$1/archs.txt\"\n",
                "KNOB = \"{gencode}\"\n");
  std::vector<std::string> Args = {"build", Root.sub("m.toml"), "--facts",
                                   Root.sub("facts.toml"), "--arch", "sm_90",
                                   "--launcher", "none"};
  // Offline with an empty cache: an error that names what is missing.
  std::vector<std::string> Offline = Args;
  Offline.push_back("--offline");
  RunResult Miss = cudadeps(Offline);
  EXPECT_EQ(Miss.Code, 3) << Miss.Out << Miss.Err;
  EXPECT_THAT(Miss.Err, HasSubstr("offline: the sources of scripted 1.0"));
  EXPECT_THAT(Miss.Err, HasSubstr("not in the cache"));

  RunResult R = cudadeps(Args);
  ASSERT_EQ(R.Code, 0) << R.Out << R.Err;
  ASSERT_EQ(entries().size(), 1u);
  std::string EnvText = readWhole(entries()[0] + "/out/env.txt");
  EXPECT_THAT(EnvText, HasSubstr("CUDA_HOME=/opt/fake-cuda\n"));
  EXPECT_THAT(EnvText, HasSubstr("PATH=/opt/fake-cuda/bin:"));
  EXPECT_THAT(EnvText, HasSubstr("CXX=/usr/bin/g++\n"));
  EXPECT_THAT(EnvText, HasSubstr("TORCH_CUDA_ARCH_LIST=9.0\n"));
  EXPECT_THAT(EnvText,
              HasSubstr("KNOB=-gencode arch=compute_90,code=sm_90\n"));
  EXPECT_EQ(readWhole(entries()[0] + "/out/archs.txt"), "sm_90\n");
  // The log says how long each step took.
  EXPECT_THAT(readWhole(entries()[0] + "/build.log"),
              ::testing::ContainsRegex("# step command done in [0-9]+\\.[0-9] s\n"));

  // The repository is gone: offline, everything comes from the cache.
  ASSERT_FALSE(llvm::sys::fs::remove_directories(Root.sub("script")));
  RunResult Hit = cudadeps(Offline);
  ASSERT_EQ(Hit.Code, 0) << Hit.Out << Hit.Err;
  EXPECT_THAT(Hit.Out, HasSubstr("scripted 1.0: cache hit"));
}

TEST_F(BuildTest, GitInsteadOfConfigurationRedirectsTheUrl) {
  scriptPackage("#!/bin/sh\ntouch \"$1/ok\"\n");
  // The manifest names a host that does not exist; git's configuration
  // maps it to the local repository, as a mirror would.
  std::string M = readWhole(Root.sub("m.toml"));
  M.replace(M.find(Root.sub("script")), Root.sub("script").size(),
            "https://mirror.invalid/scripted.git");
  ASSERT_TRUE(writeFile(Root.sub("m.toml"), M));
  ASSERT_TRUE(writeFile(Root.sub("home/.gitconfig"),
                        "[url \"" + Root.sub("script") +
                            "\"]\n\tinsteadOf = "
                            "https://mirror.invalid/scripted.git\n"));
  RunResult R = cudadeps({"build", Root.sub("m.toml"), "--facts",
                          Root.sub("facts.toml"), "--launcher", "none"});
  ASSERT_EQ(R.Code, 0) << R.Out << R.Err;
  ASSERT_EQ(entries().size(), 1u);
  EXPECT_TRUE(llvm::sys::fs::exists(entries()[0] + "/out/ok"));
}

/// A fake Python: records argv and the environment, writes a wheel for
/// `-m pip wheel`, and runs the real python3 for everything else cudadeps
/// asks of it (retagging the wheel with `-c`).
std::string fakePython(llvm::StringRef Log, llvm::StringRef RealPython) {
  return ("#!/bin/sh\n"
          "{ echo \"argv: $*\"; env | sed 's/^/env: /'; } >> '" + Log + "'\n"
          "if [ \"$1 $2 $3\" = \"-m pip wheel\" ]; then\n"
          "  while [ $# -gt 0 ]; do [ \"$1\" = -w ] && out=$2; shift; done\n"
          "  exec '" + RealPython + "' -c '\n"
          "import sys, zipfile\n"
          "with zipfile.ZipFile(sys.argv[1] + \"/kernel-1.0-py3-none-any.whl\", \"w\") as z:\n"
          "    z.writestr(\"kernel/__init__.py\", \"\")\n"
          "    z.writestr(\"kernel-1.0.dist-info/METADATA\", \"Metadata-Version: 2.1\\nName: kernel\\nVersion: 1.0\\n\")\n"
          "    z.writestr(\"kernel-1.0.dist-info/WHEEL\", \"Wheel-Version: 1.0\\n\")\n"
          "    z.writestr(\"kernel-1.0.dist-info/RECORD\", \"\")\n"
          "' \"$out\"\n"
          "fi\n"
          "if [ \"$1 $2 $3\" = \"-m pip install\" ]; then exit 0; fi\n"
          "exec '" + RealPython + "' \"$@\"\n")
      .str();
}

TEST_F(BuildTest, TorchExtensionRunsPipWheelWithTheFactsPythonThenInstalls) {
  std::string Real = findProgramInPath("python3", std::getenv("PATH"));
  if (Real.empty())
    GTEST_SKIP() << "no python3 on PATH (needed to write the fake wheel)";
  ASSERT_TRUE(makeScriptProject(Root.sub("ext"), Root.sub("home"),
                                "#!/bin/sh\n", {{"setup.py", "# fake\n"}}));
  std::string Log = Root.sub("python.log");
  ASSERT_TRUE(writeFile(Root.sub("bin/python"), fakePython(Log, Real), true));
  ASSERT_TRUE(writeFile(
      Root.sub("facts.toml"),
      buildFacts("/opt/fake-cuda/bin/nvcc", "13.0.88", "/usr/bin/g++",
                 "12.2.0",
                 "[python]\npath = \"" + Root.sub("bin/python") +
                     "\"\nversion = \"3.12.3\"\n\n[torch]\nversion = "
                     "\"2.11.0+cu130\"\ncuda = \"13.0\"\ncxx11_abi = true\n")));
  ASSERT_TRUE(writeFile(Root.sub("m.toml"),
                        "schema = 1\n[package]\nname = \"kernel\"\ngit = \"" +
                            Root.sub("ext") +
                            "\"\nbuild = \"torch-extension\"\n[requires]\n"
                            "nvcc = \">=12\"\ntorch = \">=2.4\"\n[[release]]\n"
                            "version = \"1.0\"\narchs = [\"sm_80\", "
                            "\"sm_90\"]\n[build.env]\nKERNEL_FORCE_BUILD = "
                            "\"TRUE\"\n"));
  RunResult R = cudadeps({"install", Root.sub("m.toml"), "--facts",
                          Root.sub("facts.toml"), "--arch", "sm_90",
                          "--launcher", "none"});
  ASSERT_EQ(R.Code, 0) << R.Out << R.Err;
  std::string Calls = readWhole(Log);
  std::string Src = Cache + "/src/kernel-1.0-";
  EXPECT_THAT(Calls, HasSubstr("argv: -m pip wheel --no-build-isolation "
                               "--no-deps -v " + Src));
  EXPECT_THAT(Calls, HasSubstr("env: CUDA_HOME=/opt/fake-cuda\n"));
  EXPECT_THAT(Calls, HasSubstr("env: TORCH_CUDA_ARCH_LIST=9.0\n"));
  EXPECT_THAT(Calls, HasSubstr("env: NVCC_CCBIN=/usr/bin/g++\n"));
  EXPECT_THAT(Calls, HasSubstr("env: MAX_JOBS=2\n"));
  EXPECT_THAT(Calls, HasSubstr("env: KERNEL_FORCE_BUILD=TRUE\n"));
  // The wheel carries what it was built for and sits in the shared
  // --find-links directory; pip installs it with --no-deps.
  std::string Wheel = "kernel-1.0+cu130torch2.11sm90-py3-none-any.whl";
  EXPECT_TRUE(llvm::sys::fs::exists(Cache + "/wheels/" + Wheel)) << R.Out;
  EXPECT_THAT(R.Out, HasSubstr("wheel: " + Wheel));
  EXPECT_THAT(Calls, HasSubstr("argv: -m pip install --no-deps "
                               "--disable-pip-version-check " +
                               entries()[0] + "/out/" + Wheel));
  EXPECT_THAT(R.Out, HasSubstr("installed into " + Root.sub("bin/python")));
  // The retagged wheel's metadata agrees with its name.
  std::string Meta = output(
      {Real, "-c",
       "import sys,zipfile;z=zipfile.ZipFile(sys.argv[1]);"
       "print(z.read('kernel-1.0+cu130torch2.11sm90.dist-info/METADATA')"
       ".decode())",
       Cache + "/wheels/" + Wheel});
  EXPECT_THAT(Meta, HasSubstr("Version: 1.0+cu130torch2.11sm90"));
}

TEST_F(BuildTest, RealTorchExtensionWhereTorchIsInstalled) {
  std::string Python = findProgramInPath("python3", std::getenv("PATH"));
  if (Python.empty() ||
      output({Python, "-c", "import torch; print(1)"}).empty())
    GTEST_SKIP() << "no torch importable in python3: the real "
                    "torch-extension build needs one";
  if (!llvm::sys::fs::can_execute(RealNvcc))
    GTEST_SKIP() << "no real toolkit at " << RealNvcc;
  // With torch present: a minimal extension through the real pip and torch.
  ASSERT_TRUE(makeScriptProject(
      Root.sub("ext"), Root.sub("home"), "#!/bin/sh\n",
      {{"setup.py",
        "from setuptools import setup\n"
        "from torch.utils.cpp_extension import BuildExtension, CUDAExtension\n"
        "setup(name='tiny_ext', version='1.0', ext_modules=[CUDAExtension("
        "'tiny_ext', ['k.cu'])], cmdclass={'build_ext': BuildExtension})\n"},
       {"k.cu", "#include <torch/extension.h>\n"
                "PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {}\n"}}));
  RunResult Probe = cudadeps({"probe", "--format", "toml"});
  ASSERT_EQ(Probe.Code, 0) << Probe.Err;
  ASSERT_TRUE(writeFile(Root.sub("facts.toml"), Probe.Out));
  ASSERT_TRUE(writeFile(Root.sub("m.toml"),
                        "schema = 1\n[package]\nname = \"tiny-ext\"\ngit = \"" +
                            Root.sub("ext") +
                            "\"\nbuild = \"torch-extension\"\n[requires]\n"
                            "nvcc = \">=11\"\n[[release]]\nversion = "
                            "\"1.0\"\n[build.env]\nTORCH_CUDA_ARCH_LIST = "
                            "\"{torch_arch_list}\"\n"));
  RunResult R = cudadeps({"build", Root.sub("m.toml"), "--facts",
                          Root.sub("facts.toml"), "--arch", "sm_90"});
  ASSERT_EQ(R.Code, 0) << R.Out << R.Err;
  EXPECT_THAT(R.Out, HasSubstr("wheel: tiny_ext-1.0+"));
}

TEST_F(BuildTest, RequirementArgumentsInsteadOfAManifest) {
  scriptPackage("#!/bin/sh\ntouch \"$1/ok\"\n");
  ASSERT_FALSE(llvm::sys::fs::copy_file(Root.sub("m.toml"),
                                        Root.sub("registry/scripted.toml")));
  RunResult R = cudadeps({"resolve", "scripted>=1", "--facts",
                          Root.sub("facts.toml"), "--arch", "sm_90"});
  ASSERT_EQ(R.Code, 0) << R.Out << R.Err;
  EXPECT_THAT(R.Out, HasSubstr("scripted"));
  EXPECT_THAT(R.Out, HasSubstr("1.0"));

  RunResult B = cudadeps({"build", "scripted", "--facts",
                          Root.sub("facts.toml"), "--arch", "sm_90",
                          "--launcher", "none"});
  ASSERT_EQ(B.Code, 0) << B.Out << B.Err;
  EXPECT_THAT(B.Out, HasSubstr("scripted 1.0: built for sm_90"));

  RunResult Unknown = cudadeps({"resolve", "scripted", "no-such-package",
                                "--facts", Root.sub("facts.toml")});
  EXPECT_EQ(Unknown.Code, 2) << Unknown.Out << Unknown.Err;
  EXPECT_THAT(Unknown.Err, HasSubstr("<command line>"));
  EXPECT_THAT(Unknown.Err, HasSubstr("no manifest for package "
                                     "'no-such-package'"));

  RunResult Bad = cudadeps({"resolve", "scripted>>1", "--facts",
                            Root.sub("facts.toml")});
  EXPECT_EQ(Bad.Code, 2) << Bad.Out << Bad.Err;
  EXPECT_THAT(Bad.Err, HasSubstr("<command line>"));
}

TEST_F(BuildTest, MissingPrebuiltFallsThroughToTheNextStrategy) {
  std::string Python = findProgramInPath("python3", std::getenv("PATH"));
  if (Python.empty() || output({Python, "-m", "pip", "--version"}).empty())
    GTEST_SKIP() << "no python3 with pip on PATH";
  // No nvcc: the prebuilt wheel is the preferred strategy; its URL does not
  // exist, so the package falls through to its declared fallback.
  ASSERT_TRUE(writeFile(
      Root.sub("facts.toml"),
      "[python]\npath = \"" + Python +
          "\"\nversion = \"3.12.3\"\n\n[torch]\nversion = \"2.9.0+cu128\"\n"
          "cuda = \"12.8\"\ncxx11_abi = true\n\n[platform]\nos = \"linux\"\n"
          "arch = \"x86_64\"\n"));
  auto Manifest = [&](llvm::StringRef Url) {
    return ("schema = 1\n[package]\nname = \"kernel\"\ngit = \"" +
            Root.sub("nowhere") +
            "\"\nbuild = \"torch-extension\"\n[requires]\nnvcc = \">=12\"\n"
            "torch = \">=2.4\"\n[[release]]\nversion = \"1.0\"\n"
            "[release.prebuilt]\ntorch = [\"2.9\"]\ncuda = [\"12\"]\n"
            "python = [\"cp312\"]\nplatform = [\"linux_x86_64\"]\n[prebuilt]\n"
            "url = \"" + Url + "\"\n[[fallback]]\nname = \"slow-path\"\n"
            "summary = \"plain PyTorch\"\nimpact = \"slower\"\n")
        .str();
  };
  ASSERT_TRUE(writeFile(Root.sub("m.toml"),
                        Manifest("file://" + Root.sub("gone") +
                                 "/kernel-{version}-{python.tag}-"
                                 "{python.tag}-{platform.tag}.whl")));
  RunResult R = cudadeps({"build", Root.sub("m.toml"), "--facts",
                          Root.sub("facts.toml")});
  ASSERT_EQ(R.Code, 0) << R.Out << R.Err;
  EXPECT_THAT(R.Err, HasSubstr("does not exist"));
  EXPECT_THAT(R.Err, HasSubstr("trying the next strategy"));
  EXPECT_THAT(R.Out, HasSubstr("using fallback 'slow-path'"));

  // A wheel that exists is fetched through pip into the cache, and reused
  // offline.
  std::string Wheel = Root.sub("pub/kernel-1.0-cp312-cp312-linux_x86_64.whl");
  ASSERT_TRUE(writeFile(Root.sub("m.toml"),
                        Manifest("file://" + Root.sub("pub") +
                                 "/kernel-{version}-{python.tag}-"
                                 "{python.tag}-{platform.tag}.whl")));
  ASSERT_TRUE(makeDirs(Root.sub("pub")));
  output({Python, "-c",
          "import sys,zipfile;z=zipfile.ZipFile(sys.argv[1],'w');"
          "z.writestr('kernel/__init__.py','');"
          "z.writestr('kernel-1.0.dist-info/METADATA','Metadata-Version: "
          "2.1\\nName: kernel\\nVersion: 1.0\\n');"
          "z.writestr('kernel-1.0.dist-info/WHEEL','Wheel-Version: 1.0\\n"
          "Root-Is-Purelib: true\\nTag: cp312-cp312-linux_x86_64\\n');"
          "z.writestr('kernel-1.0.dist-info/RECORD','');z.close();print(1)",
          Wheel});
  ASSERT_TRUE(llvm::sys::fs::exists(Wheel));
  RunResult Got = cudadeps({"build", Root.sub("m.toml"), "--facts",
                            Root.sub("facts.toml")});
  ASSERT_EQ(Got.Code, 0) << Got.Out << Got.Err;
  EXPECT_THAT(Got.Out, HasSubstr("kernel 1.0: prebuilt wheel " + Cache +
                                 "/downloads/"));
  ASSERT_FALSE(llvm::sys::fs::remove(Wheel));
  RunResult Offline = cudadeps({"build", Root.sub("m.toml"), "--facts",
                                Root.sub("facts.toml"), "--offline"});
  ASSERT_EQ(Offline.Code, 0) << Offline.Out << Offline.Err;
  EXPECT_THAT(Offline.Out, HasSubstr("kernel 1.0: prebuilt wheel"));
}

} // namespace
