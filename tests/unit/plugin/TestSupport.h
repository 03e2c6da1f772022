//===- TestSupport.h - fakes and temp directories for the plugin tests ----===//
#ifndef CUDADEPS_TESTS_UNIT_PLUGIN_TESTSUPPORT_H
#define CUDADEPS_TESTS_UNIT_PLUGIN_TESTSUPPORT_H

#include "core/plugin/Probe.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <functional>
#include <string>

namespace cudadeps::test {

/// A fresh directory, removed with its contents at the end of the test.
class TempDir {
public:
  TempDir() {
    llvm::sys::fs::createUniqueDirectory("cudadeps-plugin-test", Path);
  }
  ~TempDir() { llvm::sys::fs::remove_directories(Path); }
  std::string path(llvm::StringRef Rel = {}) const {
    llvm::SmallString<256> P(Path);
    if (!Rel.empty())
      llvm::sys::path::append(P, Rel);
    return std::string(P);
  }
  /// Writes \p Text to \p Rel (creating parent directories); returns the path.
  std::string write(llvm::StringRef Rel, llvm::StringRef Text) const {
    std::string P = path(Rel);
    llvm::sys::fs::create_directories(llvm::sys::path::parent_path(P));
    std::error_code EC;
    llvm::raw_fd_ostream OS(P, EC);
    OS << Text;
    return P;
  }

private:
  llvm::SmallString<256> Path;
};

/// A probe whose answer is a function; counts how often it really ran.
class FakeProbe : public Probe {
public:
  using Fn = std::function<llvm::Expected<ProbeAnswer>(const ProbeContext &)>;
  FakeProbe(std::string Name, Fn Answer, std::string Ver = "1")
      : Name(std::move(Name)), Ver(std::move(Ver)), Answer(std::move(Answer)) {}
  llvm::StringRef name() const override { return Name; }
  llvm::StringRef version() const override { return Ver; }
  llvm::Expected<ProbeAnswer> probe(const ProbeContext &Ctx) override {
    ++Calls;
    return Answer(Ctx);
  }
  std::atomic<int> Calls{0};
  std::string Name;
  std::string Ver;

private:
  Fn Answer;
};

/// A ProcessRunner for contexts whose probes run nothing.
class NoProcessRunner : public ProcessRunner {
public:
  llvm::Expected<ProcessResult> run(const ProcessRequest &) override {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "no processes in this test");
  }
};

inline std::string testPlugin(llvm::StringRef Name) {
  return (llvm::Twine(CUDADEPS_TEST_PLUGIN_DIR) + "/" + Name + ".so").str();
}

} // namespace cudadeps::test

#endif
