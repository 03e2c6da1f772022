//===- BoundedReadTest.cpp - FIFOs, /dev/zero and huge files as input -----===//
//
// A FIFO in place of a file blocks open() and read() forever; /dev/zero
// never ends; a symlink may point at either. Every reader must refuse them
// quickly and clearly, and nothing may read a file whole before checking its
// size. Each case runs in a child with a time and memory cap.
//
//===----------------------------------------------------------------------===//
#include "core/facts/FactsFile.h"
#include "core/manifest/KnowledgeBase.h"
#include "core/manifest/ManifestLoader.h"
#include "core/plugin/ProbeCache.h"
#include "core/support/BoundedFile.h"
#include "core/support/JsonSupport.h"
#include "plugins/cuda-runtime/CudaRuntimeProbe.h"
#include "plugins/nvcc/NvccProbe.h"
#include "tests/hostile/Bounded.h"
#include "tests/support/FakeToolkit.h"
#include "tests/support/RunCli.h"

#include <gtest/gtest.h>

#include <sys/stat.h>

using namespace cudadeps;
using namespace cudadeps::test;

namespace {

std::string errorOf(llvm::Error E) {
  return E ? llvm::toString(std::move(E)) : std::string();
}

bool contains(const std::string &S, llvm::StringRef Part) {
  return llvm::StringRef(S).contains(Part);
}

TEST(BoundedFile, RefusesFifosDevicesAndHugeFilesBeforeReading) {
  TempDir T;
  ASSERT_TRUE(T.ok());
  std::string Fifo = T.sub("fifo");
  ASSERT_EQ(mkfifo(Fifo.c_str(), 0600), 0);
  std::string ZeroLink = T.sub("zero-link");
  ASSERT_TRUE(makeSymlink("/dev/zero", ZeroLink));
  std::string Big = T.sub("big");
  ASSERT_TRUE(writeFile(Big, std::string(5000, 'x')));

  BoundedOutcome O = runBounded(
      [&] {
        std::string E1 = errorOf(readBoundedFile(Fifo, 4096, "manifest").takeError());
        std::string E2 = errorOf(readBoundedFile("/dev/zero", 4096, "facts file").takeError());
        std::string E3 = errorOf(readBoundedFile(ZeroLink, 4096, "entry").takeError());
        std::string E4 = errorOf(readBoundedFile(Big, 4096, "manifest").takeError());
        std::string E5 = errorOf(readBoundedFile(T.path(), 4096, "manifest").takeError());
        if (!contains(E1, "is a FIFO, not a regular file"))
          return 1;
        if (!contains(E2, "is a character device"))
          return 2;
        if (!contains(E3, "is a character device"))
          return 3;
        if (!contains(E4, "too large (5000 bytes; the limit is 4096)"))
          return 4;
        if (!contains(E5, "is a directory"))
          return 5;
        llvm::Expected<std::string> Head = readFileHead(Big, 10, "file");
        if (!Head || *Head != std::string(10, 'x'))
          return 6;
        // /proc files report size 0 and are still read.
        llvm::Expected<std::string> Status =
            readBoundedFile("/proc/self/status", 1 << 20, "file");
        if (!Status || !contains(*Status, "Name:"))
          return 7;
        // Read into a buffer sized from the file's size: one larger than
        // its first guess (4096 for a size of 0) grows it, and a file of
        // exactly the limit is read whole.
        llvm::Expected<std::string> Maps =
            readBoundedFile("/proc/self/smaps", 1 << 24, "file");
        if (!Maps || Maps->size() <= 4096 || !contains(*Maps, "VmFlags"))
          return 8;
        llvm::Expected<std::string> Exact = readBoundedFile(Big, 5000, "file");
        if (!Exact || *Exact != std::string(5000, 'x'))
          return 9;
        return 0;
      },
      5, 256);
  EXPECT_TRUE(O.Exited) << O.describe();
  EXPECT_EQ(O.Code, 0) << "check " << O.Code << " failed";
}

TEST(BoundedFile, EveryFileReaderRefusesAFifoAndDevZero) {
  TempDir T;
  ASSERT_TRUE(T.ok());
  std::string Fifo = T.sub("m.toml");
  ASSERT_EQ(mkfifo(Fifo.c_str(), 0600), 0);
  std::string KbDir = T.sub("kb");
  ASSERT_TRUE(makeDirs(KbDir));
  ASSERT_TRUE(makeSymlink("/dev/zero", KbDir + "/toolkits.toml"));
  BoundedOutcome O = runBounded(
      [&] {
        std::string M = errorOf(loadManifest(Fifo).takeError());
        std::string MZ = errorOf(loadManifest("/dev/zero").takeError());
        std::string F = errorOf(readFactsFile(Fifo).takeError());
        std::string FZ = errorOf(readFactsFile("/dev/zero").takeError());
        std::string K = errorOf(KnowledgeBase::loadDirectory(KbDir).takeError());
        if (!contains(M, "m.toml:1:1: error: manifest") || !contains(M, "FIFO"))
          return 1;
        if (!contains(MZ, "character device"))
          return 2;
        if (!contains(F, "FIFO"))
          return 3;
        if (!contains(FZ, "character device"))
          return 4;
        if (!contains(K, "character device"))
          return 5;
        return 0;
      },
      5, 256);
  EXPECT_TRUE(O.Exited) << O.describe();
  EXPECT_EQ(O.Code, 0) << "check " << O.Code << " failed";
}

TEST(BoundedFile, CliReportsAFifoManifestAndDevZeroFactsWithExitTwo) {
  TempDir T;
  ASSERT_TRUE(T.ok());
  std::string Fifo = T.sub("m.toml");
  ASSERT_EQ(mkfifo(Fifo.c_str(), 0600), 0);
  RunResult R = runCudadeps({"lint", Fifo}, {}, 20);
  EXPECT_EQ(R.Code, 2) << R.Err;
  EXPECT_TRUE(contains(R.Err, "is a FIFO, not a regular file")) << R.Err;
  std::string Manifest = T.sub("p.toml");
  ASSERT_TRUE(writeFile(Manifest, "schema = 1\n[project]\nname = \"x\"\n"
                                  "requires = []\n"));
  R = runCudadeps({"resolve", Manifest, "--facts", "/dev/zero"}, {}, 20);
  EXPECT_EQ(R.Code, 2) << R.Err;
  EXPECT_TRUE(contains(R.Err, "character device")) << R.Err;
}

TEST(BoundedFile, ProbesDoNotHangOnFifosInPlaceOfVersionFiles) {
  TempDir T;
  ASSERT_TRUE(T.ok());
  // version.json of a toolkit as a FIFO.
  std::string Tk = T.sub("cuda");
  makeFakeToolkit(Tk);
  ASSERT_EQ(mkfifo((Tk + "/version.json").c_str(), 0600), 0);
  // torch/version.py as a FIFO.
  std::string Venv = T.sub("venv");
  writeFile(Venv + "/pyvenv.cfg", "home = /usr/bin\nversion = 3.12.3\n");
  std::string Site = Venv + "/lib/python3.12/site-packages";
  ASSERT_TRUE(makeDirs(Site + "/torch"));
  ASSERT_EQ(mkfifo((Site + "/torch/version.py").c_str(), 0600), 0);

  BoundedOutcome O = runBounded(
      [&] {
        ProbeRunOf<createNvccProbe> Nvcc;
        Nvcc.Env.set("CUDA_HOME", Tk);
        Nvcc.Env.set("PATH", T.sub("no-bin"));
        Nvcc.SysRoot = T.sub("root");
        ProbeAnswer A = Nvcc.run();
        if (A.What != ProbeAnswer::Kind::Found)
          return 1; // the toolkit is still found from nvcc --version
        ProbeRunOf<createCudaRuntimeProbe> Runtime;
        Runtime.Env.set("VIRTUAL_ENV", Venv);
        Runtime.Env.set("PATH", T.sub("no-bin"));
        Runtime.SysRoot = T.sub("root");
        ProbeAnswer B = Runtime.run();
        if (B.Found.Torch)
          return 2; // a FIFO is no torch
        return 0;
      },
      20, 1024);
  EXPECT_TRUE(O.Exited) << O.describe();
  EXPECT_EQ(O.Code, 0) << "check " << O.Code << " failed";
}

TEST(BoundedFile, ProbeCacheEntryLinkedToDevZeroIsAMiss) {
  TempDir T;
  ASSERT_TRUE(T.ok());
  ProbeCache Cache(T.path());
  auto Probe = createNvccProbe();
  ASSERT_TRUE(makeSymlink("/dev/zero", Cache.entryPath(Probe->name())));
  MapEnvironment Env;
  RealProcessRunner Runner;
  BoundedOutcome O = runBounded(
      [&] {
        ProbeContext Ctx{Env, Runner};
        return Cache.lookup(*Probe, Ctx).has_value() ? 1 : 0;
      },
      5, 256);
  EXPECT_TRUE(O.Exited) << O.describe();
  EXPECT_EQ(O.Code, 0);
}

TEST(JsonDepth, DeepNestingIsRefusedBeforeParsing) {
  std::string Deep(50000, '[');
  BoundedOutcome O = runBounded(
      [&] {
        llvm::Expected<llvm::json::Value> V = parseJson(Deep);
        if (V)
          return 1;
        std::string E = llvm::toString(V.takeError());
        if (!contains(E, "nested deeper than 64 levels at offset 64"))
          return 2;
        // Brackets inside strings do not count.
        std::string InString = "[\"" + std::string(1000, '[') + "\"]";
        llvm::Expected<llvm::json::Value> S = parseJson(InString);
        if (!S) {
          llvm::consumeError(S.takeError());
          return 3;
        }
        return 0;
      },
      5, 256);
  EXPECT_TRUE(O.Exited) << O.describe();
  EXPECT_EQ(O.Code, 0) << "check " << O.Code << " failed";
}

TEST(JsonDepth, VersionJsonAndProbeCacheWithDeepNesting) {
  TempDir T;
  ASSERT_TRUE(T.ok());
  std::string Tk = T.sub("cuda");
  makeFakeToolkit(Tk);
  ASSERT_TRUE(writeFile(Tk + "/version.json", std::string(50000, '[')));
  ProbeCache Cache(T.sub("cache"));
  auto Probe = createNvccProbe();
  ASSERT_TRUE(writeFile(Cache.entryPath(Probe->name()),
                        std::string(50000, '{') + "\"a\":1"));
  BoundedOutcome O = runBounded(
      [&] {
        ProbeRunOf<createNvccProbe> Nvcc;
        Nvcc.Env.set("CUDA_HOME", Tk);
        Nvcc.Env.set("PATH", T.sub("no-bin"));
        Nvcc.SysRoot = T.sub("root");
        if (Nvcc.run().What != ProbeAnswer::Kind::Found)
          return 1;
        MapEnvironment Env;
        RealProcessRunner Runner;
        ProbeContext Ctx{Env, Runner};
        return Cache.lookup(*Probe, Ctx).has_value() ? 2 : 0;
      },
      20, 1024);
  EXPECT_TRUE(O.Exited) << O.describe();
  EXPECT_EQ(O.Code, 0) << "check " << O.Code << " failed";
}

} // namespace
