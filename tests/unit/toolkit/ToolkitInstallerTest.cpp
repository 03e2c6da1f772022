//===- ToolkitInstallerTest.cpp - assembling toolkits from synthetic wheels ===//
#include "core/toolkit/ToolkitInstaller.h"

#include "core/support/Interrupt.h"
#include "tests/support/FakeToolkit.h"
#include "tests/support/RunCli.h"
#include "tests/support/SyntheticWheels.h"

#include "llvm/Support/MemoryBuffer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <thread>
#include <sys/stat.h>
#include <unistd.h>

using namespace cudadeps;
using namespace llvm;
using namespace cudadeps::test;
using ::testing::HasSubstr;

namespace {

const char *const Provisioning = R"(
[[provision]]
cuda = "13.0.88"
components = { "nvidia-cuda-nvcc" = "13.0.88", "nvidia-cuda-crt" = "13.0.88", "nvidia-nvvm" = "13.0.88", "nvidia-cuda-runtime" = "13.0.88", "nvidia-cuda-cccl" = "13.0.85" }
download_mib = 100
installed_mib = 266
source = "test"

[[provision]]
cuda = "13.0.48"
components = { "nvidia-cuda-nvcc" = "13.0.48" }
source = "test"

[[no_provision]]
cuda_major = 12
reason = "the CUDA 12 wheels hold no nvcc"
source = "test"
)";

class ToolkitInstallerTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_TRUE(T.ok());
    ASSERT_FALSE(errorToBool(KB.addFile(Provisioning, "provisioning.toml")));
    ASSERT_TRUE(makeDirs(T.sub("wheels")));
    R.Version = "13.0";
    R.From = T.sub("wheels");
    R.Store = T.sub("store");
    R.Machine = "x86_64";
  }

  Expected<InstallResult> install() {
    Expected<InstallPlan> P = planToolkitInstall(R, KB);
    if (!P)
      return P.takeError();
    return installToolkit(R, *P, Runner, Observer);
  }

  /// The names in the store, hidden ones included (.locks aside).
  std::vector<std::string> storeEntries() {
    std::vector<std::string> Out;
    std::error_code EC;
    for (llvm::sys::fs::directory_iterator It(R.Store, EC), End;
         It != End && !EC; It.increment(EC)) {
      std::string Name = llvm::sys::path::filename(It->path()).str();
      if (Name != ".locks")
        Out.push_back(Name);
    }
    return Out;
  }

  TempDir T{"cudadeps-toolkit"};
  KnowledgeBase KB;
  InstallRequest R;
  RealProcessRunner Runner;
  InstallObserver Observer;
};

std::string linkTarget(const std::string &Path) {
  char Buf[512];
  ssize_t N = ::readlink(Path.c_str(), Buf, sizeof(Buf));
  return N > 0 ? std::string(Buf, N) : std::string();
}

TEST_F(ToolkitInstallerTest, PlansThePinnedComponentsOfTheNewestBuild) {
  ASSERT_FALSE(errorToBool(makeSyntheticWheels(R.From)));
  // A second runtime of the same minor: the pinned one wins.
  SyntheticWheelOptions O;
  O.Version = "13.0.48";
  O.Runtime = "13.0.96";
  O.Cccl = "13.0.50";
  ASSERT_FALSE(errorToBool(makeSyntheticWheels(R.From, O)));
  Expected<InstallPlan> P = planToolkitInstall(R, KB);
  ASSERT_TRUE(bool(P)) << toString(P.takeError());
  EXPECT_EQ(P->Version, "13.0.88");
  EXPECT_EQ(P->How, ToolkitOrigin::Kind::Wheels);
  ASSERT_EQ(P->Wheels.size(), 5u);
  EXPECT_EQ(P->Wheels[0].Component, "nvidia-cuda-nvcc");
  EXPECT_EQ(P->Wheels[3].Component, "nvidia-cuda-runtime");
  EXPECT_EQ(P->Wheels[3].Ver.str(), "13.0.88");
  EXPECT_EQ(P->Wheels[4].Ver.str(), "13.0.85");
  EXPECT_EQ(P->InstalledMiB, 266u);
}

TEST_F(ToolkitInstallerTest, AssemblesACudaHomeLayout) {
  ASSERT_FALSE(errorToBool(makeSyntheticWheels(R.From)));
  Expected<InstallResult> Done = install();
  ASSERT_TRUE(bool(Done)) << toString(Done.takeError());
  EXPECT_FALSE(Done->AlreadyInstalled);
  EXPECT_EQ(Done->Root, T.sub("store/13.0.88"));
  EXPECT_EQ(Done->VerifiedArch, "sm_75");
  std::string Root = Done->Root;
  EXPECT_TRUE(llvm::sys::fs::can_execute(Root + "/bin/nvcc"));
  EXPECT_TRUE(llvm::sys::fs::exists(Root + "/include/crt/host_config.h"));
  EXPECT_TRUE(llvm::sys::fs::exists(Root + "/include/cccl/cub/version.cuh"));
  EXPECT_TRUE(llvm::sys::fs::exists(Root + "/include/cuda_runtime.h"));
  EXPECT_TRUE(llvm::sys::fs::can_execute(Root + "/nvvm/bin/cicc"));
  EXPECT_TRUE(llvm::sys::fs::is_directory(Root + "/lib64"));
  EXPECT_EQ(linkTarget(Root + "/lib"), "lib64");
  EXPECT_EQ(linkTarget(Root + "/lib64/libcudart.so"), "libcudart.so.13");
  EXPECT_EQ(linkTarget(Root + "/lib64/libnvvm.so"), "libnvvm.so.4");
  EXPECT_FALSE(llvm::sys::fs::exists(Root + "/nvidia_cuda_nvcc-13.0.88.dist-info"));

  std::optional<ToolkitOrigin> O = readToolkitOrigin(Root);
  ASSERT_TRUE(O.has_value());
  EXPECT_EQ(O->Version, "13.0.88");
  EXPECT_EQ(O->How, ToolkitOrigin::Kind::Wheels);
  EXPECT_EQ(O->From, R.From);
  EXPECT_GT(O->Bytes, 0u);
  ASSERT_EQ(O->Components.size(), 5u);
  EXPECT_EQ(O->Components[4],
            std::make_pair(std::string("nvidia-cuda-cccl"), std::string("13.0.85")));
  // Nothing but the toolkit is left in the store.
  EXPECT_EQ(storeEntries(), std::vector<std::string>{"13.0.88"});

  std::vector<InstalledToolkit> All = listInstalledToolkits(R.Store);
  ASSERT_EQ(All.size(), 1u);
  EXPECT_EQ(All[0].Ver.str(), "13.0.88");
  ASSERT_TRUE(All[0].Origin.has_value());
  EXPECT_THAT(All[0].Origin->describe(), HasSubstr(R.From));

  // A second install finds it.
  Expected<InstallResult> Again = install();
  ASSERT_TRUE(bool(Again)) << toString(Again.takeError());
  EXPECT_TRUE(Again->AlreadyInstalled);

  ASSERT_FALSE(errorToBool(removeToolkit(R.Store, "13.0.88")));
  EXPECT_TRUE(listInstalledToolkits(R.Store).empty());
  EXPECT_TRUE(storeEntries().empty());
  EXPECT_THAT(toString(removeToolkit(R.Store, "13.0.88")),
              HasSubstr("not installed"));
}

TEST_F(ToolkitInstallerTest, AWrongVersionFailsVerificationAndLeavesNothing) {
  SyntheticWheelOptions O;
  O.NvccReports = "13.0.48";
  ASSERT_FALSE(errorToBool(makeSyntheticWheels(R.From, O)));
  Expected<InstallResult> Done = install();
  ASSERT_FALSE(bool(Done));
  EXPECT_THAT(toString(Done.takeError()),
              HasSubstr("--version says 13.0.48, expected 13.0.88"));
  EXPECT_TRUE(storeEntries().empty());
  EXPECT_TRUE(listInstalledToolkits(R.Store).empty());
}

TEST_F(ToolkitInstallerTest, AKernelThatDoesNotCompileFailsVerification) {
  // CCCL stored outside the toolkit's prefix: include/cccl stays empty.
  SyntheticWheelOptions O;
  O.CcclPrefix = "nvidia/elsewhere/";
  ASSERT_FALSE(errorToBool(makeSyntheticWheels(R.From, O)));
  Expected<InstallResult> Done = install();
  ASSERT_FALSE(bool(Done));
  std::string Msg = toString(Done.takeError());
  EXPECT_THAT(Msg, HasSubstr("the test kernel does not compile"));
  EXPECT_THAT(Msg, HasSubstr("include/cccl/cub/version.cuh"));
  EXPECT_TRUE(storeEntries().empty());
}

TEST_F(ToolkitInstallerTest, AHostileWheelIsRefusedAndLeavesNothing) {
  SyntheticWheelOptions O;
  O.ExtraNvccMembers = {{"nvidia/cu13/../../../../evil", "x"}};
  ASSERT_FALSE(errorToBool(makeSyntheticWheels(R.From, O)));
  Expected<InstallResult> Done = install();
  ASSERT_FALSE(bool(Done));
  EXPECT_THAT(toString(Done.takeError()), HasSubstr("refusing member"));
  EXPECT_TRUE(storeEntries().empty());
  EXPECT_FALSE(llvm::sys::fs::exists(T.sub("evil")));
}

TEST_F(ToolkitInstallerTest, ALinkPointingOutOfTheToolkitIsRefused) {
  SyntheticWheelOptions O;
  O.ExtraNvccMembers = {{"nvidia/cu13/lib/escape", "../../../..", 0777,
                         /*IsSymlink=*/true}};
  ASSERT_FALSE(errorToBool(makeSyntheticWheels(R.From, O)));
  Expected<InstallResult> Done = install();
  ASSERT_FALSE(bool(Done));
  EXPECT_THAT(toString(Done.takeError()), HasSubstr("outside the tree"));
  EXPECT_TRUE(storeEntries().empty());
}

TEST_F(ToolkitInstallerTest, ConcurrentInstallsOfOneVersionSerialise) {
  ASSERT_FALSE(errorToBool(makeSyntheticWheels(R.From)));
  std::optional<Expected<InstallResult>> A, B;
  std::thread First([&] { A.emplace(install()); });
  std::thread Second([&] { B.emplace(install()); });
  First.join();
  Second.join();
  ASSERT_TRUE(bool(*A)) << toString(A->takeError());
  ASSERT_TRUE(bool(*B)) << toString(B->takeError());
  // Exactly one of them did the work; the other found it done.
  EXPECT_NE((*A)->AlreadyInstalled, (*B)->AlreadyInstalled);
  EXPECT_EQ(storeEntries(), std::vector<std::string>{"13.0.88"});
}

TEST_F(ToolkitInstallerTest, LeftoversOfAnInterruptedInstallAreInvisibleAndCleared) {
  ASSERT_FALSE(errorToBool(makeSyntheticWheels(R.From)));
  // What a killed install leaves: a hidden partial tree with a full nvcc.
  std::string Partial = T.sub("store/.partial-13.0.88-abc123/toolkit");
  ASSERT_TRUE(writeFile(Partial + "/bin/nvcc", syntheticNvcc("13.0.88"), true));
  EXPECT_TRUE(listInstalledToolkits(R.Store).empty());
  Expected<InstallResult> Done = install();
  ASSERT_TRUE(bool(Done)) << toString(Done.takeError());
  EXPECT_EQ(storeEntries(), std::vector<std::string>{"13.0.88"});
}

TEST_F(ToolkitInstallerTest, AnInterruptStopsTheInstallAndLeavesNothing) {
  ASSERT_FALSE(errorToBool(makeSyntheticWheels(R.From)));
  requestInterrupt();
  Expected<InstallResult> Done = install();
  clearInterrupt();
  ASSERT_FALSE(bool(Done));
  Error E = Done.takeError();
  EXPECT_TRUE(E.isA<InterruptedError>());
  consumeError(std::move(E));
  EXPECT_TRUE(storeEntries().empty());
}

TEST_F(ToolkitInstallerTest, MissingComponentsAreNamed) {
  ASSERT_FALSE(errorToBool(makeSyntheticWheels(R.From)));
  ASSERT_FALSE(errorToBool(llvm::errorCodeToError(llvm::sys::fs::remove(
      R.From + "/" + wheelFileName("nvidia_cuda_crt", "13.0.88")))));
  Expected<InstallPlan> P = planToolkitInstall(R, KB);
  ASSERT_FALSE(bool(P));
  EXPECT_THAT(toString(P.takeError()),
              HasSubstr("has no nvidia-cuda-crt wheel for toolkit 13.0.88"));
  R.Version = "13.1";
  P = planToolkitInstall(R, KB);
  ASSERT_FALSE(bool(P));
  EXPECT_THAT(toString(P.takeError()),
              HasSubstr("no nvidia-cuda-nvcc 13.1 wheel for x86_64 "
                        "(nvidia-cuda-nvcc wheels found: 13.0.88)"));
}

TEST_F(ToolkitInstallerTest, Cuda12CannotComeFromPypiAndTheErrorSaysWhy) {
  R.From.clear();
  R.Version = "12.8";
  Expected<InstallPlan> P = planToolkitInstall(R, KB);
  ASSERT_FALSE(bool(P));
  std::string Msg = toString(P.takeError());
  EXPECT_THAT(Msg, HasSubstr("the CUDA 12 wheels hold no nvcc"));
  EXPECT_THAT(Msg, HasSubstr("13.0.88, 13.0.48"));
  EXPECT_THAT(Msg, HasSubstr("NVIDIA's runfile"));
  R.Version = "banana";
  EXPECT_THAT(toString(planToolkitInstall(R, KB).takeError()),
              HasSubstr("invalid toolkit version 'banana'"));
}

TEST_F(ToolkitInstallerTest, PipDownloadsThePinnedWheels) {
  // A fake Python whose "pip download" copies the wheels and logs its argv.
  ASSERT_FALSE(errorToBool(makeSyntheticWheels(R.From)));
  std::string Python = T.sub("bin/python3");
  ASSERT_TRUE(writeFile(Python,
                        "#!/bin/sh\n"
                        "echo \"$@\" > " + T.sub("pip-args") + "\n"
                        "while [ $# -gt 0 ]; do [ \"$1\" = --dest ] && "
                        "dest=$2; shift; done\n"
                        "mkdir -p \"$dest\" && cp " + R.From + "/*.whl \"$dest\"/\n",
                        true));
  R.From.clear();
  R.Python = Python;
  Expected<InstallResult> Done = install();
  ASSERT_TRUE(bool(Done)) << toString(Done.takeError());
  EXPECT_EQ(Done->Origin.How, ToolkitOrigin::Kind::Pypi);
  std::string Args = readWhole(T.sub("pip-args"));
  EXPECT_THAT(Args, HasSubstr("-m pip download --no-deps --only-binary=:all:"));
  EXPECT_THAT(Args, HasSubstr("nvidia-cuda-nvcc==13.0.88"));
  EXPECT_THAT(Args, HasSubstr("nvidia-cuda-cccl==13.0.85"));
  EXPECT_EQ(readToolkitOrigin(Done->Root)->describe(), "NVIDIA's wheels from PyPI");
}

TEST_F(ToolkitInstallerTest, PipFailureIsReportedWithItsOutput) {
  std::string Python = T.sub("bin/python3");
  ASSERT_TRUE(writeFile(Python,
                        "#!/bin/sh\necho 'ERROR: No matching distribution "
                        "found for nvidia-cuda-nvcc==13.0.88'\nexit 1\n",
                        true));
  R.From.clear();
  R.Python = Python;
  Expected<InstallResult> Done = install();
  ASSERT_FALSE(bool(Done));
  EXPECT_THAT(toString(Done.takeError()),
              HasSubstr("No matching distribution found"));
  EXPECT_TRUE(storeEntries().empty());
}

TEST_F(ToolkitInstallerTest, ARunfileInstallsWithoutRoot) {
  // A fake runfile: checks its options and lays out a toolkit.
  std::string Runfile = T.sub("cuda_12.8.1_570.124.06_linux.run");
  ASSERT_TRUE(writeFile(
      Runfile,
      "#!/bin/sh\n"
      "echo \"$@\" > " + T.sub("runfile-args") + "\n"
      "for a in \"$@\"; do case \"$a\" in --toolkitpath=*) d=${a#*=};; esac; done\n"
      "[ -n \"$d\" ] || exit 3\n"
      "mkdir -p \"$d/bin\" \"$d/include/crt\" \"$d/include/cccl/cub\" "
      "\"$d/lib64\" \"$d/nvvm/bin\"\n"
      "cat > \"$d/bin/nvcc\" <<'EOF'\n" + syntheticNvcc("12.8.93") + "EOF\n"
      "chmod +x \"$d/bin/nvcc\"\n"
      "touch \"$d/include/crt/host_config.h\" \"$d/include/cuda_runtime.h\" "
      "\"$d/include/cccl/cub/version.cuh\" \"$d/nvvm/bin/cicc\"\n"
      "ln -s libcudart.so.12 \"$d/lib64/libcudart.so\"; touch \"$d/lib64/libcudart.so.12\"\n"));
  R.Version = "12.8";
  R.From = Runfile;
  Expected<InstallResult> Done = install();
  ASSERT_TRUE(bool(Done)) << toString(Done.takeError());
  EXPECT_EQ(Done->Root, T.sub("store/12.8.93"));
  EXPECT_EQ(Done->Origin.How, ToolkitOrigin::Kind::Runfile);
  std::string Args = readWhole(T.sub("runfile-args"));
  EXPECT_THAT(Args, HasSubstr("--silent --toolkit --toolkitpath="));
  EXPECT_THAT(Args, HasSubstr("--tmpdir="));
  EXPECT_THAT(readToolkitOrigin(Done->Root)->describe(),
              HasSubstr("runfile " + Runfile));
  EXPECT_EQ(storeEntries(), std::vector<std::string>{"12.8.93"});
}

TEST_F(ToolkitInstallerTest, AFailingRunfileLeavesNothing) {
  std::string Runfile = T.sub("cuda.run");
  ASSERT_TRUE(writeFile(Runfile, "#!/bin/sh\necho 'Installation failed. "
                                 "See log at /var/log/cuda-installer.log'\n"
                                 "exit 1\n"));
  R.Version = "12.8";
  R.From = Runfile;
  Expected<InstallResult> Done = install();
  ASSERT_FALSE(bool(Done));
  EXPECT_THAT(toString(Done.takeError()), HasSubstr("Installation failed"));
  EXPECT_TRUE(storeEntries().empty());
}

TEST(ToolkitStore, DirectoryFollowsXdgDataHome) {
  MapEnvironment Env(std::map<std::string, std::string>{{"HOME", "/home/u"}});
  EXPECT_EQ(toolkitStoreDir(Env), "/home/u/.local/share/cudadeps/toolkits");
  Env.set("XDG_DATA_HOME", "/data");
  EXPECT_EQ(toolkitStoreDir(Env), "/data/cudadeps/toolkits");
  EXPECT_EQ(toolkitStoreDir(MapEnvironment()), "");
}

TEST(ToolkitStore, OriginRecordsRoundTrip) {
  ToolkitOrigin O;
  O.How = ToolkitOrigin::Kind::Wheels;
  O.Version = "13.0.88";
  O.From = "/srv/wheels";
  O.Components = {{"nvidia-cuda-nvcc", "13.0.88"}};
  O.InstalledAt = "2026-12-01T10:00:00Z";
  O.Bytes = 123;
  Expected<ToolkitOrigin> Back = ToolkitOrigin::fromJson(O.toJson());
  ASSERT_TRUE(bool(Back)) << toString(Back.takeError());
  EXPECT_EQ(Back->toJson(), O.toJson());
  EXPECT_FALSE(bool(ToolkitOrigin::fromJson("[1]")));
  consumeError(ToolkitOrigin::fromJson("{").takeError());
}

} // namespace

namespace {
// A FIFO or junk in place of the origin record never blocks or breaks the
// listing: the toolkit is listed without an origin.
TEST(ToolkitStore, AHostileOriginRecordIsIgnored) {
  TempDir T("cudadeps-toolkit");
  ASSERT_TRUE(T.ok());
  ASSERT_TRUE(writeFile(T.sub("store/13.0.88/bin/nvcc"), syntheticNvcc("13.0.88"), true));
  ASSERT_EQ(::mkfifo(T.sub("store/13.0.88/cudadeps-toolkit.json").c_str(), 0600), 0);
  ASSERT_TRUE(writeFile(T.sub("store/13.1.80/bin/nvcc"), syntheticNvcc("13.1.80"), true));
  ASSERT_TRUE(writeFile(T.sub("store/13.1.80/cudadeps-toolkit.json"), "{\"vers"));
  std::vector<InstalledToolkit> All = listInstalledToolkits(T.sub("store"));
  ASSERT_EQ(All.size(), 2u);
  EXPECT_FALSE(All[0].Origin.has_value());
  EXPECT_FALSE(All[1].Origin.has_value());
}
} // namespace
