//===- ProbePhaseTest.cpp - hanging tools, the deadline and a stale cache -===//
//
// Hanging nvcc binaries cost one timeout together (toolkits are asked in
// parallel) and never more than the probe phase's deadline; resolve says
// which probe timed out, in text and JSON; and the probe cache never keeps
// "absent" once something appears (a toolkit at $CUDA_HOME, a libcuda) nor
// keeps an answer in which something timed out.
//
//===----------------------------------------------------------------------===//
#include "core/plugin/MachineFacts.h"
#include "core/plugin/ProbeCache.h"
#include "core/plugin/ProbeRunner.h"
#include "plugins/driver/DriverProbe.h"
#include "plugins/nvcc/NvccProbe.h"
#include "tests/hostile/Bounded.h"
#include "tests/support/FakeToolkit.h"
#include "tests/support/RunCli.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>

using namespace cudadeps;
using namespace cudadeps::test;
using ::testing::HasSubstr;

namespace {

using Clock = std::chrono::steady_clock;

const std::string Scenarios = CUDADEPS_FIXTURES_DIR "/scenarios";

/// Four toolkits on PATH whose nvcc never answers; returns the PATH.
std::string hangingNvccs(const TempDir &T, unsigned N = 4) {
  std::string Path;
  for (unsigned I = 0; I < N; ++I) {
    std::string Bin = T.sub("hang" + std::to_string(I) + "/bin");
    writeFile(Bin + "/nvcc", "#!/bin/sh\nexec /bin/sleep 300\n",
              /*Executable=*/true);
    Path += (Path.empty() ? "" : ":") + Bin;
  }
  return Path;
}

std::unique_ptr<Probe> makeNvcc() { return createNvccProbe(); }

/// gatherFacts with only the nvcc probe on a fake machine.
MachineFacts gatherNvcc(const TempDir &T, MapEnvironment &Env,
                        std::chrono::milliseconds CommandTimeout,
                        std::chrono::milliseconds Deadline) {
  static RealProcessRunner Runner;
  static const ProbeFactory Builtins[] = {makeNvcc};
  GatherOptions G{Env, Runner};
  G.Builtins = Builtins;
  G.CacheDir = "-";
  G.SysRoot = T.sub("root");
  G.CommandTimeout = CommandTimeout;
  G.ProbeDeadline = Deadline;
  llvm::Expected<MachineFacts> M = gatherFacts(G);
  if (!M) {
    ADD_FAILURE() << llvm::toString(M.takeError());
    return {};
  }
  return std::move(*M);
}

TEST(ProbePhase, HangingToolkitsCostOneTimeoutNotOneEach) {
  TempDir T;
  ASSERT_TRUE(T.ok());
  MapEnvironment Env;
  Env.set("PATH", hangingNvccs(T));
  BoundedOutcome O = runBounded(
      [&] {
        auto Start = Clock::now();
        MachineFacts M = gatherNvcc(T, Env, std::chrono::milliseconds(2000),
                                    std::chrono::milliseconds(0));
        auto Took = Clock::now() - Start;
        if (M.Reports.size() != 1 || M.Reports[0].TimedOut.size() != 4)
          return 1;
        // In series it would be 4 x 2 s.
        if (Took > std::chrono::milliseconds(6000))
          return 2;
        return 0;
      },
      30, 512);
  EXPECT_TRUE(O.Exited) << O.describe();
  EXPECT_EQ(O.Code, 0) << "check " << O.Code << " failed";
}

TEST(ProbePhase, TheDeadlineBoundsThePhase) {
  TempDir T;
  ASSERT_TRUE(T.ok());
  MapEnvironment Env;
  // More toolkits than are asked at once, each with a long timeout: only
  // the phase's deadline ends them.
  Env.set("PATH", hangingNvccs(T, 12));
  BoundedOutcome O = runBounded(
      [&] {
        auto Start = Clock::now();
        MachineFacts M = gatherNvcc(T, Env, std::chrono::milliseconds(60000),
                                    std::chrono::milliseconds(1500));
        auto Took = Clock::now() - Start;
        if (M.Reports.size() != 1 || M.Reports[0].TimedOut.size() != 12)
          return 1;
        bool Said = false;
        for (const std::string &W : M.Reports[0].Warnings)
          Said |= llvm::StringRef(W).contains("deadline");
        if (!Said)
          return 2;
        if (Took > std::chrono::milliseconds(5000))
          return 3;
        return 0;
      },
      30, 512);
  EXPECT_TRUE(O.Exited) << O.describe();
  EXPECT_EQ(O.Code, 0) << "check " << O.Code << " failed";
}

TEST(ProbePhase, ResolveReportsATimedOutProbe) {
  TempDir T;
  ASSERT_TRUE(T.ok());
  std::string Hanging = hangingNvccs(T, 1);
  std::map<std::string, std::string> Env = {
      {"PATH", Hanging + ":/usr/bin:/bin"},
      {"CUDA_HOME", ""},
      {"CUDA_PATH", ""},
      {"CUDADEPS_FACTS", ""},
      {"CUDADEPS_PLUGIN_PATH", ""},
      {"CUDADEPS_PROBE_TIMEOUT", "1"},
      {"XDG_CACHE_HOME", T.sub("cache")}};
  std::vector<std::string> Args = {"resolve", Scenarios + "/demo-project.toml",
                                   "--registry", Scenarios + "/registry"};
  auto Start = Clock::now();
  RunResult Text = runCudadeps(Args, Env, 60);
  EXPECT_LT(Clock::now() - Start, std::chrono::seconds(20));
  EXPECT_THAT(Text.Out, HasSubstr("warning: probe nvcc: " + T.sub("hang0") +
                                  "/bin/nvcc --version timed out after 1s"))
      << Text.Out << Text.Err;

  Args.push_back("--format");
  Args.push_back("json");
  RunResult Json = runCudadeps(Args, Env, 60);
  llvm::Expected<llvm::json::Value> Doc = llvm::json::parse(Json.Out);
  ASSERT_TRUE(bool(Doc)) << llvm::toString(Doc.takeError()) << Json.Out
                         << Json.Err;
  const llvm::json::Array *Timeouts =
      Doc->getAsObject()->getArray("probe_timeouts");
  ASSERT_TRUE(Timeouts) << Json.Out;
  // On a loaded machine another real tool may time out too: look for ours.
  const llvm::json::Object *Ours = nullptr;
  for (const llvm::json::Value &V : *Timeouts)
    if (const llvm::json::Object *O = V.getAsObject())
      if (O->getString("what") ==
          llvm::Optional<llvm::StringRef>(T.sub("hang0") +
                                          "/bin/nvcc --version"))
        Ours = O;
  ASSERT_TRUE(Ours) << Json.Out;
  EXPECT_EQ(Ours->getString("probe"), llvm::Optional<llvm::StringRef>("nvcc"));
  EXPECT_EQ(Ours->getInteger("after_ms"), llvm::Optional<int64_t>(1000));

  // A timeout is not cached: the second run timed out again rather than
  // reading "no nvcc" from the cache.
  EXPECT_THAT(Json.Out, HasSubstr("timed out after 1s"));
}

TEST(ProbePhase, BadProbeTimeoutIsAUsageError) {
  RunResult R = runCudadeps({"probe"}, {{"CUDADEPS_PROBE_TIMEOUT", "soon"}});
  EXPECT_EQ(R.Code, 2) << R.Out << R.Err;
  EXPECT_THAT(R.Err, HasSubstr("$CUDADEPS_PROBE_TIMEOUT is 'soon'"));
}

/// Runs \p P once through runProbes with a cache in \p CacheDir.
ProbeReport probeCached(Probe &P, const ProbeContext &Ctx,
                        const std::string &CacheDir) {
  ProbeCache Cache(CacheDir);
  ProbeRunOptions Opts;
  Opts.Cache = &Cache;
  Probe *List[] = {&P};
  ProbeRun Run = runProbes(List, Ctx, Opts);
  return Run.Reports.at(0);
}

TEST(ProbeCacheStaleness, AToolkitInstalledAtCudaHomeIsSeen) {
  TempDir T;
  ASSERT_TRUE(T.ok());
  MapEnvironment Env;
  Env.set("CUDA_HOME", T.sub("cuda"));
  Env.set("PATH", T.sub("no-bin"));
  RealProcessRunner Runner;
  ProbeContext Ctx{Env, Runner, std::chrono::seconds(10), T.sub("root")};
  std::unique_ptr<Probe> P = createNvccProbe();
  std::string Cache = T.sub("cache");

  ProbeReport First = probeCached(*P, Ctx, Cache);
  EXPECT_EQ(First.What, ProbeReport::Status::NotPresent);
  ProbeReport Again = probeCached(*P, Ctx, Cache);
  EXPECT_TRUE(Again.FromCache) << "an unchanged machine is a cache hit";

  FakeToolkitSpec Spec;
  makeFakeToolkit(T.sub("cuda"), Spec);
  ProbeReport After = probeCached(*P, Ctx, Cache);
  EXPECT_FALSE(After.FromCache);
  EXPECT_EQ(After.What, ProbeReport::Status::Found);
}

TEST(ProbeCacheStaleness, AnNvccOnPathAppearingIsSeen) {
  TempDir T;
  ASSERT_TRUE(T.ok());
  MapEnvironment Env;
  Env.set("PATH", T.sub("bin"));
  makeDirs(T.sub("bin"));
  RealProcessRunner Runner;
  ProbeContext Ctx{Env, Runner, std::chrono::seconds(10), T.sub("root")};
  std::unique_ptr<Probe> P = createNvccProbe();
  std::string Cache = T.sub("cache");
  EXPECT_EQ(probeCached(*P, Ctx, Cache).What, ProbeReport::Status::NotPresent);
  ASSERT_TRUE(probeCached(*P, Ctx, Cache).FromCache);
  FakeToolkitSpec Spec;
  std::string Nvcc = makeFakeToolkit(T.sub("toolkit"), Spec);
  ASSERT_TRUE(makeSymlink(Nvcc, T.sub("bin/nvcc")));
  ProbeReport After = probeCached(*P, Ctx, Cache);
  EXPECT_FALSE(After.FromCache);
  EXPECT_EQ(After.What, ProbeReport::Status::Found);
}

TEST(ProbeCacheStaleness, ATimeoutIsNeverCached) {
  TempDir T;
  ASSERT_TRUE(T.ok());
  MapEnvironment Env;
  Env.set("PATH", hangingNvccs(T, 1));
  RealProcessRunner Runner;
  ProbeContext Ctx{Env, Runner, std::chrono::milliseconds(300), T.sub("root")};
  std::unique_ptr<Probe> P = createNvccProbe();
  std::string Cache = T.sub("cache");
  ProbeReport First = probeCached(*P, Ctx, Cache);
  ASSERT_EQ(First.TimedOut.size(), 1u);
  EXPECT_FALSE(llvm::sys::fs::exists(ProbeCache(Cache).entryPath("nvcc")));
  ProbeReport Second = probeCached(*P, Ctx, Cache);
  EXPECT_FALSE(Second.FromCache);
  EXPECT_EQ(Second.TimedOut.size(), 1u);
}

TEST(ProbeCacheStaleness, ALibcudaInstalledLaterIsSeen) {
  TempDir T;
  ASSERT_TRUE(T.ok());
  std::string Lib = T.sub("lib/libcuda.so.1");
  MapEnvironment Env;
  Env.set("CUDADEPS_LIBCUDA", Lib);
  Env.set("PATH", T.sub("no-bin"));
  RealProcessRunner Runner;
  ProbeContext Ctx{Env, Runner, std::chrono::seconds(5), T.sub("root")};
  std::unique_ptr<Probe> P = createDriverProbe();
  std::string Cache = T.sub("cache");
  EXPECT_EQ(probeCached(*P, Ctx, Cache).What, ProbeReport::Status::NotPresent);
  ASSERT_TRUE(probeCached(*P, Ctx, Cache).FromCache);
  ASSERT_TRUE(makeDirs(T.sub("lib")));
  ASSERT_FALSE(llvm::sys::fs::copy_file(
      std::string(CUDADEPS_TEST_PLUGIN_DIR) + "/fake_libcuda.so.1", Lib));
  ProbeReport After = probeCached(*P, Ctx, Cache);
  EXPECT_FALSE(After.FromCache);
  EXPECT_EQ(After.What, ProbeReport::Status::Found) << After.Reason;
}

} // namespace
