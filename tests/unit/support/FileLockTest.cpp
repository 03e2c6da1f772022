// FileLock: exclusive, waits, and stops waiting on an interrupt.
#include "core/support/FileLock.h"
#include "core/support/Interrupt.h"

#include "tests/support/FakeToolkit.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

using namespace cudadeps;

namespace {

TEST(FileLock, SecondHolderWaitsUntilRelease) {
  test::TempDir D("cudadeps-lock");
  ASSERT_TRUE(D.ok());
  std::string Path = D.sub("a/b/x.lock"); // parents are created
  auto First = FileLock::acquire(Path);
  ASSERT_TRUE(bool(First)) << llvm::toString(First.takeError());
  std::atomic<bool> Waited{false}, Got{false};
  std::thread T([&] {
    auto Second = FileLock::acquire(Path, [&] { Waited = true; });
    Got = bool(Second);
    if (!Second)
      llvm::consumeError(Second.takeError());
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_TRUE(Waited.load());
  EXPECT_FALSE(Got.load());
  First->release();
  T.join();
  EXPECT_TRUE(Got.load());
}

TEST(FileLock, InterruptStopsTheWait) {
  test::TempDir D("cudadeps-lock");
  ASSERT_TRUE(D.ok());
  auto First = FileLock::acquire(D.sub("x.lock"));
  ASSERT_TRUE(bool(First)) << llvm::toString(First.takeError());
  requestInterrupt();
  auto Second = FileLock::acquire(D.sub("x.lock"));
  clearInterrupt();
  ASSERT_FALSE(bool(Second));
  llvm::Error E = Second.takeError();
  EXPECT_TRUE(E.isA<InterruptedError>());
  EXPECT_NE(llvm::toString(std::move(E)).find("x.lock"), std::string::npos);
}

} // namespace
