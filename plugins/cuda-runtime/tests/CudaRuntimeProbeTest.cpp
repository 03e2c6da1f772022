//===- CudaRuntimeProbeTest.cpp - Python, torch and wheels from files -----===//

#include "plugins/cuda-runtime/CudaRuntimeProbe.h"
#include "plugins/cuda-runtime/PythonEnvironments.h"

#include "core/plugin/MachineFacts.h"
#include "core/plugin/ProbeCache.h"
#include "core/plugin/ProbeRunner.h"
#include "tests/support/FakeToolkit.h"
#include "tests/support/SharedObjects.h"
#include "tests/support/TorchLayout.h"

#include "llvm/Support/Program.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>

using namespace cudadeps;
using namespace cudadeps::test;
using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

/// torch/version.py as torch 2.x writes it (annotated assignments).
std::string torchVersionPy(llvm::StringRef Ver, llvm::StringRef Cuda) {
  return "from typing import Optional\n\n"
         "__all__ = ['__version__', 'debug', 'cuda', 'git_version', 'hip', 'xpu']\n"
         "__version__ = '" + Ver.str() + "'\n"
         "debug = False\n"
         "cuda: Optional[str] = " + (Cuda.empty() ? std::string("None") : "'" + Cuda.str() + "'") + "\n"
         "git_version = 'a8d6afb511a69687bbb2b7e88a3cf67917e1697e'\n"
         "hip: Optional[str] = None\n"
         "xpu: Optional[str] = None\n";
}

std::string torchConfig(int Abi) {
  return "# When we build libtorch with the old libstdc++ ABI, dependent "
         "libraries must too.\n"
         "if(CMAKE_SYSTEM_NAME STREQUAL \"Linux\")\n"
         "  set(TORCH_CXX_FLAGS \"-D_GLIBCXX_USE_CXX11_ABI=" + std::to_string(Abi) +
         "\")\nendif()\n";
}

void distInfo(llvm::StringRef Site, llvm::StringRef Dir, llvm::StringRef Name,
              llvm::StringRef Ver) {
  writeFile((Site + "/" + Dir + "/METADATA").str(),
            ("Metadata-Version: 2.1\nName: " + Name + "\nVersion: " + Ver +
             "\nSummary: x\n\nVersion: 0.0.0 (body, not a header)\n")
                .str());
}

using RuntimeRun = ProbeRunOf<createCudaRuntimeProbe>;

} // namespace

TEST(RuntimeParse, TorchVersionPy) {
  auto F = runtime::parseTorchVersionPy(torchVersionPy("2.11.0+cu128", "12.8"));
  ASSERT_TRUE(F.has_value());
  EXPECT_EQ(F->Version, "2.11.0+cu128");
  EXPECT_EQ(F->Cuda, "12.8");
  auto Cpu = runtime::parseTorchVersionPy(torchVersionPy("2.11.0+cpu", ""));
  ASSERT_TRUE(Cpu.has_value());
  EXPECT_EQ(Cpu->Cuda, std::nullopt);
  // Older torch: plain assignments with double quotes.
  auto Old = runtime::parseTorchVersionPy("__version__ = \"1.13.1\"\ncuda = \"11.7\"\n");
  ASSERT_TRUE(Old.has_value());
  EXPECT_EQ(Old->Cuda, "11.7");
  EXPECT_FALSE(runtime::parseTorchVersionPy("debug = False\n").has_value());
}

TEST(RuntimeParse, AbiDistNamesAndMetadata) {
  EXPECT_EQ(runtime::parseCxx11Abi(torchConfig(1)), true);
  EXPECT_EQ(runtime::parseCxx11Abi(torchConfig(0)), false);
  EXPECT_EQ(runtime::parseCxx11Abi("set(TORCH_CXX_FLAGS \"\")"), std::nullopt);
  EXPECT_EQ(runtime::normalizeDistributionName("Flash_Attn"), "flash-attn");
  EXPECT_EQ(runtime::normalizeDistributionName("zope.interface"), "zope-interface");
  EXPECT_EQ(runtime::parseDistInfoDirName("triton-3.6.0.dist-info"),
            std::make_pair(std::string("triton"), std::string("3.6.0")));
  EXPECT_EQ(runtime::parseDistInfoDirName("torch-2.11.0+cu128.dist-info")->second,
            "2.11.0+cu128");
  EXPECT_EQ(runtime::parseDistInfoDirName("foo_bar-1.0-py3.11.egg-info"),
            std::make_pair(std::string("foo-bar"), std::string("1.0")));
  EXPECT_FALSE(runtime::parseDistInfoDirName("torch").has_value());
  EXPECT_EQ(runtime::parseMetadata("Name: Causal_Conv1d\nVersion: 1.5.0.post8\n\nVersion: 9\n"),
            std::make_pair(std::string("causal-conv1d"), std::string("1.5.0.post8")));
}

TEST(CudaRuntimeProbe, VenvWithTorchWheelsAndCudaRuntime) {
  TempDir T;
  ASSERT_TRUE(T.ok());
  std::string Venv = T.sub("venv");
  writeFile(Venv + "/pyvenv.cfg", "home = /usr/bin\ninclude-system-site-packages = false\n"
                                  "version = 3.12.3\n");
  writeFile(Venv + "/bin/python3", "#!/bin/sh\nexit 3\n", true); // never run
  std::string Site = Venv + "/lib/python3.12/site-packages";
  writeFile(Site + "/torch/version.py", torchVersionPy("2.11.0+cu128", "12.8"));
  writeFile(Site + "/torch/share/cmake/Torch/TorchConfig.cmake", torchConfig(1));
  distInfo(Site, "torch-2.11.0+cu128.dist-info", "torch", "2.11.0+cu128");
  distInfo(Site, "triton-3.6.0.dist-info", "triton", "3.6.0");
  distInfo(Site, "Flash_Attn-2.8.3.dist-info", "flash_attn", "2.8.3");
  // A directory name that is not name-version: METADATA decides.
  distInfo(Site, "odd.dist-info", "Causal_Conv1d", "1.5.0.post8");
  writeFile(Site + "/nvidia/cuda_runtime/lib/libcudart.so.12", "");
  writeFile(Site + "/nvidia/cu13/lib/libcudart.so.13", "");
  writeFile(Site + "/distutils-precedence.pth", "");

  RuntimeRun R;
  R.Env.set("VIRTUAL_ENV", Venv);
  R.Env.set("PATH", T.sub("no-bin"));
  ProbeAnswer A = R.run();
  ASSERT_EQ(A.What, ProbeAnswer::Kind::Found) << joined(A.Warnings);
  EXPECT_TRUE(A.Warnings.empty()) << joined(A.Warnings);

  ASSERT_TRUE(A.Found.Python.has_value());
  EXPECT_EQ(A.Found.Python->Path, Venv + "/bin/python3");
  EXPECT_EQ(A.Found.Python->Ver.str(), "3.12.3");
  EXPECT_EQ(A.Found.Python->tag(), "cp312");
  EXPECT_EQ(A.Found.Python->From, Source::probed("cuda-runtime", Venv + "/pyvenv.cfg"));

  ASSERT_TRUE(A.Found.Torch.has_value());
  EXPECT_EQ(A.Found.Torch->Ver.str(), "2.11.0+cu128");
  ASSERT_TRUE(A.Found.Torch->Cuda.has_value());
  EXPECT_EQ(A.Found.Torch->Cuda->str(), "12.8");
  EXPECT_EQ(A.Found.Torch->Cxx11Abi, true);
  EXPECT_EQ(A.Found.Torch->From,
            Source::probed("cuda-runtime", Site + "/torch/version.py"));

  auto Has = [&](const char *Name, const char *Ver) {
    auto It = A.Found.Packages.find(Name);
    if (It == A.Found.Packages.end())
      return std::string("missing");
    return It->second.Ver.str() == Ver ? std::string("ok") : It->second.Ver.str();
  };
  EXPECT_EQ(Has("torch", "2.11.0+cu128"), "ok");
  EXPECT_EQ(Has("triton", "3.6.0"), "ok");
  EXPECT_EQ(Has("flash-attn", "2.8.3"), "ok");
  EXPECT_EQ(Has("causal-conv1d", "1.5.0.post8"), "ok");
  EXPECT_EQ(Has("libcudart", "13"), "ok");
  EXPECT_EQ(A.Found.Packages["libcudart"].From,
            Source::probed("cuda-runtime", Site + "/nvidia/cu13/lib/libcudart.so.13"));
  EXPECT_THAT(A.Inputs, Contains(Site + "/torch/version.py"));
  EXPECT_THAT(A.Inputs, Contains(Site + "/torch/share/cmake/Torch/TorchConfig.cmake"));
  // site-packages' distributions, torch and nvidia/, not its modification
  // time.
  EXPECT_THAT(A.Inputs, Not(Contains(Site)));
  auto Listing =
      std::find_if(A.Listings.begin(), A.Listings.end(),
                   [&](const DirListing &L) { return L.Dir == Site; });
  ASSERT_NE(Listing, A.Listings.end());
  EXPECT_THAT(Listing->Names, Contains("torch"));
  EXPECT_THAT(Listing->Names, Contains("nvidia"));
  EXPECT_THAT(Listing->Names, Not(Contains("distutils-precedence.pth")));
}

// What another tool does to a machine without changing a fact: Python
// writes a __pycache__ into site-packages, a wrapper (perf, pyenv) puts a
// directory in front of $PATH. The cached answer stays; a distribution
// installed there replaces it.
TEST(CudaRuntimeProbe,
     CachedAnswerOutlivesUnrelatedChangesNotANewDistribution) {
  TempDir T, Cache;
  ASSERT_TRUE(T.ok() && Cache.ok());
  std::string Venv = T.sub("venv");
  writeFile(Venv + "/pyvenv.cfg", "version = 3.12.3\n");
  writeFile(Venv + "/bin/python3", "#!/bin/sh\nexit 3\n", true); // never run
  std::string Site = Venv + "/lib/python3.12/site-packages";
  distInfo(Site, "triton-3.6.0.dist-info", "triton", "3.6.0");
  MapEnvironment Env;
  Env.set("VIRTUAL_ENV", Venv);
  Env.set("PATH", Venv + "/bin:/usr/bin");
  RealProcessRunner Runner;
  ProbeContext Ctx{Env, Runner};
  ProbeCache C(Cache.path());
  ProbeRunOptions O;
  O.Cache = &C;
  std::unique_ptr<Probe> P = createCudaRuntimeProbe();
  auto Run = [&] { return runProbes({P.get()}, Ctx, O); };
  auto SetTime = [&](time_t Seconds) {
    struct timespec Times[2] = {{Seconds, 0}, {Seconds, 0}};
    ASSERT_EQ(::utimensat(AT_FDCWD, Site.c_str(), Times, 0), 0);
  };

  ProbeRun First = Run();
  ASSERT_EQ(First.Reports[0].What, ProbeReport::Status::Found);
  EXPECT_FALSE(First.Reports[0].FromCache);

  writeFile(Site + "/__pycache__/six.cpython-312.pyc", "");
  writeFile(Site + "/distutils-precedence.pth", "");
  SetTime(1000000);
  std::string Wrapper = T.sub("perf-core");
  ASSERT_TRUE(makeDirs(Wrapper));
  Env.set("PATH", Wrapper + ":" + Venv + "/bin:/usr/bin");
  ProbeRun Second = Run();
  EXPECT_TRUE(Second.Reports[0].FromCache);
  EXPECT_EQ(Second.Merged, First.Merged);

  distInfo(Site, "newpkg-1.0.dist-info", "newpkg", "1.0");
  SetTime(2000000);
  ProbeRun Third = Run();
  EXPECT_FALSE(Third.Reports[0].FromCache);
  EXPECT_EQ(Third.Merged.Packages.count("newpkg"), 1u);

  // Another python3 in front on $PATH is another environment.
  writeFile(Wrapper + "/python3", "#!/bin/sh\nexit 3\n", true);
  EXPECT_FALSE(Run().Reports[0].FromCache);
}

TEST(CudaRuntimeProbe, CondaCpuTorchWithTheOldAbi) {
  TempDir T;
  ASSERT_TRUE(T.ok());
  std::string Conda = T.sub("conda");
  writeFile(Conda + "/conda-meta/python-3.11.9-h955ad1f_0.json", "{}");
  writeFile(Conda + "/conda-meta/python-dateutil-2.9.0-pyhd8ed1ab_0.json", "{}");
  std::string Site = Conda + "/lib/python3.11/site-packages";
  writeFile(Site + "/torch/version.py", torchVersionPy("2.5.1+cpu", ""));
  writeFile(Site + "/torch/share/cmake/Caffe2/Caffe2Targets.cmake",
            "  INTERFACE_COMPILE_OPTIONS \"-D_GLIBCXX_USE_CXX11_ABI=0\"\n");
  RuntimeRun R;
  R.Env.set("CONDA_PREFIX", Conda);
  ProbeAnswer A = R.run();
  ASSERT_TRUE(A.Found.Python.has_value()) << joined(A.Warnings);
  EXPECT_EQ(A.Found.Python->Ver.str(), "3.11.9");
  ASSERT_TRUE(A.Found.Torch.has_value());
  EXPECT_EQ(A.Found.Torch->Ver.str(), "2.5.1+cpu");
  EXPECT_FALSE(A.Found.Torch->Cuda.has_value());
  EXPECT_EQ(A.Found.Torch->Cxx11Abi, false);
}

TEST(CudaRuntimeProbe, Python3OnPathGivesItsPrefixAndVersionFromItsName) {
  TempDir T;
  ASSERT_TRUE(T.ok());
  std::string Usr = T.sub("usr");
  writeFile(Usr + "/bin/python3.10", "#!/bin/sh\nexit 3\n", true);
  ASSERT_TRUE(makeSymlink("python3.10", Usr + "/bin/python3"));
  makeDirs(Usr + "/lib/python3.9/site-packages"); // a leftover
  std::string Site = Usr + "/lib/python3.10/site-packages";
  writeFile(Site + "/torch/version.py", torchVersionPy("2.4.0", "12.1"));
  RuntimeRun R;
  R.Env.set("PATH", Usr + "/bin");
  ProbeAnswer A = R.run();
  ASSERT_TRUE(A.Found.Python.has_value()) << joined(A.Warnings);
  EXPECT_EQ(A.Found.Python->Path, Usr + "/bin/python3");
  EXPECT_EQ(A.Found.Python->Ver.str(), "3.10");
  ASSERT_TRUE(A.Found.Torch.has_value());
  EXPECT_EQ(A.Found.Torch->Ver.str(), "2.4.0");
  EXPECT_FALSE(A.Found.Torch->Cxx11Abi.has_value()); // no CMake config: unknown
}

TEST(CudaRuntimeProbe, AShimWithoutLayoutIsAskedOnce) {
  TempDir T;
  ASSERT_TRUE(T.ok());
  std::string Real = T.sub("pyenv/versions/3.11.7");
  std::string Site = Real + "/lib/python3.11/site-packages";
  distInfo(Site, "triton-3.6.0.dist-info", "triton", "3.6.0");
  // Like a pyenv shim: a script in a directory with no lib/ beside it.
  writeFile(T.sub("pyenv/shims/python3"),
            "#!/bin/sh\necho 3.11.7\necho " + Site + "\necho " + Site + "\n", true);
  RuntimeRun R;
  R.Env.set("PATH", T.sub("pyenv/shims"));
  ProbeAnswer A = R.run();
  ASSERT_EQ(A.What, ProbeAnswer::Kind::Found) << joined(A.Warnings);
  ASSERT_TRUE(A.Found.Python.has_value());
  EXPECT_EQ(A.Found.Python->Path, T.sub("pyenv/shims/python3"));
  EXPECT_EQ(A.Found.Python->Ver.str(), "3.11.7");
  EXPECT_EQ(A.Found.Packages.count("triton"), 1u);
}

TEST(CudaRuntimeProbe, NoPythonIsNotPresent) {
  TempDir T;
  ASSERT_TRUE(T.ok());
  RuntimeRun R;
  R.Env.set("PATH", T.sub("bin"));
  ProbeAnswer A = R.run();
  EXPECT_EQ(A.What, ProbeAnswer::Kind::NotPresent);
  EXPECT_EQ(A.NotPresentReason, "no Python environment found");
  EXPECT_THAT(A.Searched, Contains("$VIRTUAL_ENV (unset)"));
}

TEST(PythonEnvironments, VenvBeforeCondaBeforePathAndDeduplicated) {
  TempDir T;
  ASSERT_TRUE(T.ok());
  std::string Venv = T.sub("venv");
  writeFile(Venv + "/pyvenv.cfg", "version_info = 3.13.1.final.0\n");
  makeDirs(Venv + "/lib/python3.13/site-packages");
  writeFile(Venv + "/bin/python3", "#!/bin/sh\n", true);
  MapEnvironment Env;
  Env.set("VIRTUAL_ENV", Venv);
  Env.set("PATH", Venv + "/bin"); // an activated venv: the same environment
  std::vector<PathSearch> Searches;
  std::vector<probes::PythonEnvironment> Envs =
      probes::findPythonEnvironments(Env, Searches);
  ASSERT_EQ(Envs.size(), 1u);
  EXPECT_EQ(Envs[0].FoundVia, "$VIRTUAL_ENV");
  EXPECT_EQ(Envs[0].Version, "3.13.1");
  EXPECT_THAT(Envs[0].SitePackages, ElementsAre(Venv + "/lib/python3.13/site-packages"));
}

TEST(CudaRuntimeProbeReal, ThePython3OnThisMachine) {
  llvm::ErrorOr<std::string> Python = llvm::sys::findProgramByName("python3");
  if (!Python)
    GTEST_SKIP() << "no python3 on PATH";
  RealEnvironment Env;
  RealProcessRunner Runner;
  ProbeContext Ctx{Env, Runner, std::chrono::milliseconds(20000), ""};
  llvm::Expected<ProbeAnswer> A = createCudaRuntimeProbe()->probe(Ctx);
  ASSERT_TRUE(static_cast<bool>(A)) << llvm::toString(A.takeError());
  ASSERT_EQ(A->What, ProbeAnswer::Kind::Found) << joined(A->Warnings);
  ASSERT_TRUE(A->Found.Python.has_value());
  EXPECT_EQ(A->Found.Python->Ver.major(), 3u);
  EXPECT_FALSE(A->Found.Packages.empty()); // pip at least
}


TEST(RuntimeParse, AbiFromDynamicSymbols) {
  // Symbols of torch/lib/libc10.so in the torch 2.11.0 wheel (nm -D).
  EXPECT_EQ(runtime::cxx11AbiOfSymbols(
                {"_ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE10_M_disposeEv"},
                {"_ZN3c1013MessageLogger6streamB5cxx11Ev"}),
            true);
  EXPECT_EQ(runtime::cxx11AbiOfSymbols({}, {"_ZN3c1013MessageLogger6streamB5cxx11Ev"}),
            true);
  // The pre-C++11 std::string: std::basic_string<char> is "Ss".
  EXPECT_EQ(runtime::cxx11AbiOfSymbols({"_ZNSs4_Rep10_M_destroyERKSaIcE",
                                        "_ZNKSs4sizeEv"},
                                       {"_ZN3c105ErrorC2ENS_14SourceLocationESs"}),
            false);
  EXPECT_EQ(runtime::cxx11AbiOfSymbols({"malloc", "_ZNSt6vectorIiSaIiEE9push_backEv"}, {}),
            std::nullopt);
  EXPECT_EQ(runtime::cxx11AbiOfSymbols({"_ZNSsC1EPKcRKSaIcE"},
                                       {"_ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEED1Ev"}),
            std::nullopt); // both: not decided
}

TEST(CudaRuntimeProbe, AbiOfARealTorchLayoutComesFromLibc10) {
  for (int Abi : {1, 0}) {
    TempDir T;
    ASSERT_TRUE(T.ok());
    std::string Venv = realTorchLayout(T, Abi);
    std::string Lib = Venv + "/lib/python3.11/site-packages/torch/lib/libc10.so";
    RuntimeRun R;
    R.Env.set("VIRTUAL_ENV", Venv);
    R.Env.set("PATH", T.sub("no-bin"));
    ProbeAnswer A = R.run();
    ASSERT_TRUE(A.Found.Torch.has_value()) << joined(A.Warnings);
    EXPECT_TRUE(A.Warnings.empty()) << joined(A.Warnings);
    EXPECT_EQ(A.Found.Torch->Ver.str(), "2.11.0+cu130");
    EXPECT_EQ(A.Found.Torch->Cxx11Abi, Abi == 1) << "ABI " << Abi;
    EXPECT_EQ(A.Found.Torch->AbiFrom,
              Source::probed("cuda-runtime",
                             Lib + (Abi ? " (std::__cxx11 symbols)"
                                        : " (pre-C++11 std::string symbols)")));
    EXPECT_THAT(A.Inputs, Contains(Lib));
    EXPECT_THAT(findInconsistencies(A.Found),
                ::testing::Not(Contains(HasSubstr("C++ ABI"))));
  }
}

TEST(CudaRuntimeProbe, UnknownAbiIsAnInconsistency) {
  TempDir T;
  ASSERT_TRUE(T.ok());
  std::string Venv = realTorchLayout(T, 1);
  // A libc10.so that names no std::string at all, and a CMake config without
  // an ABI line: nothing tells.
  std::string Lib = Venv + "/lib/python3.11/site-packages/torch/lib/libc10.so";
  ASSERT_EQ(buildSharedLibrary(T, Lib, "extern \"C\" int c10_version() { return 11; }\n"), "");
  RuntimeRun R;
  R.Env.set("VIRTUAL_ENV", Venv);
  R.Env.set("PATH", T.sub("no-bin"));
  ProbeAnswer A = R.run();
  ASSERT_TRUE(A.Found.Torch.has_value()) << joined(A.Warnings);
  EXPECT_FALSE(A.Found.Torch->Cxx11Abi.has_value());
  EXPECT_THAT(findInconsistencies(A.Found),
              Contains(HasSubstr("the C++ ABI (_GLIBCXX_USE_CXX11_ABI) of torch "
                                 "2.11.0+cu130 is unknown")));
}
