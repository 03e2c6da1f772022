//===- ProbeRunnerTest.cpp - concurrent probes, merged answers, failures --===//

#include "core/plugin/ProbeRunner.h"

#include "TestSupport.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <stdexcept>
#include <thread>

using namespace cudadeps;
using namespace cudadeps::test;
using ::testing::HasSubstr;

namespace {

ProbeAnswer withNvcc(const std::string &Path, const std::string &Ver,
                     const std::string &By) {
  ProbeAnswer A;
  A.What = ProbeAnswer::Kind::Found;
  NvccFacts N;
  N.Path = Path;
  N.Ver = llvm::cantFail(Version::parse(Ver));
  N.From = Source::probed(By, Path);
  A.Found.Nvccs.push_back(N);
  return A;
}

class ProbeRunnerTest : public ::testing::Test {
protected:
  MapEnvironment Env;
  NoProcessRunner Runner;
  ProbeContext Ctx{Env, Runner};
};

TEST_F(ProbeRunnerTest, MergesInProbeOrderNotCompletionOrder) {
  // The first probe finishes last.
  FakeProbe Slow("slow", [](const ProbeContext &) -> llvm::Expected<ProbeAnswer> {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    return withNvcc("/a/nvcc", "12.8", "slow");
  });
  FakeProbe Fast("fast", [](const ProbeContext &) -> llvm::Expected<ProbeAnswer> {
    return withNvcc("/b/nvcc", "11.8", "fast");
  });
  ProbeRun R = runProbes({&Slow, &Fast}, Ctx);
  ASSERT_EQ(R.Merged.Nvccs.size(), 2u);
  EXPECT_EQ(R.Merged.Nvccs[0].Path, "/a/nvcc");
  EXPECT_EQ(R.Merged.Nvccs[1].Path, "/b/nvcc");
  ASSERT_EQ(R.Reports.size(), 2u);
  EXPECT_EQ(R.Reports[0].Name, "slow");
  EXPECT_EQ(R.Reports[1].Name, "fast");
  EXPECT_EQ(R.Reports[0].Origin, "built-in");
}

TEST_F(ProbeRunnerTest, ProbesRunConcurrently) {
  // Each probe waits until both have started: only concurrent runs finish.
  std::mutex M;
  std::condition_variable CV;
  int Started = 0;
  auto Rendezvous = [&](const ProbeContext &) -> llvm::Expected<ProbeAnswer> {
    std::unique_lock<std::mutex> L(M);
    ++Started;
    CV.notify_all();
    bool Both = CV.wait_for(L, std::chrono::seconds(10),
                            [&] { return Started == 2; });
    if (!Both)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "ran alone");
    return ProbeAnswer::notPresent("fine");
  };
  FakeProbe A("a", Rendezvous), B("b", Rendezvous);
  ProbeRun R = runProbes({&A, &B}, Ctx);
  EXPECT_EQ(R.Reports[0].What, ProbeReport::Status::NotPresent);
  EXPECT_EQ(R.Reports[1].What, ProbeReport::Status::NotPresent);
}

/// A probe that says it forks children that do not exec (a plugin, libcuda).
class ForkingProbe : public FakeProbe {
public:
  using FakeProbe::FakeProbe;
  bool forksChildren() const override { return true; }
};

// A child forked while other threads run may inherit a lock one of them
// holds: probes that fork run on the calling thread before any thread starts.
TEST_F(ProbeRunnerTest, ForkingProbesRunAloneOnTheCallingThread) {
  std::atomic<int> ThreadedStarted{0};
  auto Threaded = [&](const char *Name) {
    return std::make_unique<FakeProbe>(
        Name, [&](const ProbeContext &) -> llvm::Expected<ProbeAnswer> {
          ++ThreadedStarted;
          return ProbeAnswer{};
        });
  };
  std::thread::id Caller = std::this_thread::get_id();
  std::vector<std::pair<std::thread::id, int>> Seen;
  auto Forking = [&](const char *Name) {
    return std::make_unique<ForkingProbe>(
        Name, [&](const ProbeContext &) -> llvm::Expected<ProbeAnswer> {
          Seen.emplace_back(std::this_thread::get_id(), ThreadedStarted.load());
          return ProbeAnswer{};
        });
  };
  auto A = Threaded("a");
  auto F1 = Forking("f1");
  auto B = Threaded("b");
  auto F2 = Forking("f2");
  ProbeRun Run = runProbes({A.get(), F1.get(), B.get(), F2.get()}, Ctx, {});
  ASSERT_EQ(Seen.size(), 2u);
  for (const auto &[Id, Started] : Seen) {
    EXPECT_EQ(Id, Caller);
    EXPECT_EQ(Started, 0);
  }
  EXPECT_EQ(ThreadedStarted.load(), 2);
  // Reports keep the probes' order.
  ASSERT_EQ(Run.Reports.size(), 4u);
  EXPECT_EQ(Run.Reports[1].Name, "f1");
  EXPECT_EQ(Run.Reports[3].Name, "f2");
}

TEST_F(ProbeRunnerTest, ErrorBecomesAReportNamingTheProbeNotACrash) {
  FakeProbe Broken("driver", [](const ProbeContext &) -> llvm::Expected<ProbeAnswer> {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "libcuda hung");
  });
  FakeProbe Throws("thrower", [](const ProbeContext &) -> llvm::Expected<ProbeAnswer> {
    throw std::runtime_error("third-party bug");
  });
  FakeProbe Good("nvcc", [](const ProbeContext &) -> llvm::Expected<ProbeAnswer> {
    return withNvcc("/a/nvcc", "12.8", "nvcc");
  });
  ProbeRun R = runProbes({&Broken, &Throws, &Good}, Ctx);
  EXPECT_EQ(R.Reports[0].What, ProbeReport::Status::Error);
  EXPECT_EQ(R.Reports[0].Reason, "probe 'driver' failed: libcuda hung");
  EXPECT_EQ(R.Reports[1].What, ProbeReport::Status::Error);
  EXPECT_THAT(R.Reports[1].Reason, HasSubstr("thrower"));
  EXPECT_THAT(R.Reports[1].Reason, HasSubstr("third-party bug"));
  EXPECT_EQ(R.Reports[2].What, ProbeReport::Status::Found);
  EXPECT_EQ(R.Merged.Nvccs.size(), 1u);
}

TEST_F(ProbeRunnerTest, NotPresentReasonSearchedAndWarningsAreReported) {
  FakeProbe P("nvcc", [](const ProbeContext &) -> llvm::Expected<ProbeAnswer> {
    ProbeAnswer A = ProbeAnswer::notPresent(
        "no nvcc found", {"$CUDA_HOME", "$PATH", "/usr/local/cuda*"});
    A.Warnings = {"/usr/local/cuda-12.1/bin/nvcc timed out"};
    A.Found.Nvccs.push_back({}); // ignored: not-present answers add nothing
    return A;
  });
  ProbeRun R = runProbes({&P}, Ctx);
  const ProbeReport &Rep = R.Reports[0];
  EXPECT_EQ(Rep.What, ProbeReport::Status::NotPresent);
  EXPECT_EQ(Rep.Reason, "no nvcc found");
  EXPECT_THAT(Rep.Searched,
              ::testing::ElementsAre("$CUDA_HOME", "$PATH", "/usr/local/cuda*"));
  EXPECT_THAT(Rep.Warnings, ::testing::SizeIs(1));
  EXPECT_TRUE(R.Merged.Nvccs.empty());
  EXPECT_EQ(statusName(Rep.What), "not-present");
}

TEST_F(ProbeRunnerTest, ContextIsPassedToEveryProbe) {
  Ctx.CommandTimeout = std::chrono::milliseconds(1234);
  Ctx.SysRoot = "/fake/root";
  Env.set("X", "y");
  FakeProbe P("p", [](const ProbeContext &C) -> llvm::Expected<ProbeAnswer> {
    if (C.CommandTimeout.count() != 1234 || C.SysRoot != "/fake/root" ||
        C.Env.get("X") != std::optional<std::string>("y"))
      return llvm::createStringError(llvm::inconvertibleErrorCode(), "bad ctx");
    return ProbeAnswer::notPresent("ok");
  });
  ProbeRun R = runProbes({&P}, Ctx);
  EXPECT_EQ(R.Reports[0].What, ProbeReport::Status::NotPresent);
}

TEST_F(ProbeRunnerTest, NoProbesNoFacts) {
  ProbeRun R = runProbes({}, Ctx);
  EXPECT_TRUE(R.Reports.empty());
  EXPECT_EQ(R.Merged, Facts());
}

} // namespace
