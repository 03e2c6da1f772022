//===- LimitsTableTest.cpp - README's limits table matches the code -------===//
//
// Each row of "Limits and guarantees" in README.md must state the values of
// the constants that enforce it: a limit changed in the code without the
// table (or the other way round) fails here.
//
//===----------------------------------------------------------------------===//
#include "core/build/BuildCache.h"
#include "core/build/Builder.h"
#include "core/facts/FactsFile.h"
#include "core/inspect/SharedObject.h"
#include "core/manifest/KnowledgeBase.h"
#include "core/manifest/ManifestLoader.h"
#include "core/plan/LockFile.h"
#include "core/plugin/MachineFacts.h"
#include "core/plugin/PluginLoader.h"
#include "core/plugin/ProbeCache.h"
#include "core/support/JsonSupport.h"
#include "core/support/LoadCache.h"
#include "core/support/Process.h"
#include "core/support/TomlSupport.h"
#include "plugins/driver/LibcudaQuery.h"
#include "tests/support/RunCli.h"

#include "llvm/ADT/StringRef.h"

#include <gtest/gtest.h>

#include <map>

using namespace cudadeps;

namespace {

/// "4 MiB", "256 KiB", "4 GiB", "4096 bytes": how the table writes sizes.
std::string bytes(uint64_t N) {
  if (N >= (1ull << 30) && N % (1ull << 30) == 0)
    return std::to_string(N >> 30) + " GiB";
  if (N >= (1ull << 20) && N % (1ull << 20) == 0)
    return std::to_string(N >> 20) + " MiB";
  if (N >= (1ull << 10) && N % (1ull << 10) == 0)
    return std::to_string(N >> 10) + " KiB";
  return std::to_string(N) + " bytes";
}

std::string seconds(std::chrono::milliseconds T) {
  return std::to_string(T.count() / 1000) + " s";
}

/// The rows of the table, by their first cell.
std::map<std::string, std::string> limitRows() {
  std::string Readme = test::readWhole(CUDADEPS_SOURCE_DIR "/README.md");
  llvm::StringRef Rest(Readme);
  size_t At = Rest.find("### Limits and guarantees");
  std::map<std::string, std::string> Rows;
  if (At == llvm::StringRef::npos)
    return Rows;
  Rest = Rest.drop_front(At);
  size_t End = Rest.find("\n## ");
  Rest = Rest.take_front(End);
  llvm::SmallVector<llvm::StringRef, 32> Lines;
  Rest.split(Lines, '\n');
  for (llvm::StringRef L : Lines) {
    if (!L.startswith("| ") || L.startswith("| what") || L.startswith("|---"))
      continue;
    llvm::StringRef First = L.drop_front(2).split(" |").first;
    Rows[First.str()] = L.str();
  }
  return Rows;
}

TEST(LimitsTable, EveryRowStatesItsConstants) {
  std::map<std::string, std::string> Rows = limitRows();
  ASSERT_FALSE(Rows.empty()) << "no limits table in README.md";
  auto RowStarting = [&](llvm::StringRef Prefix) -> std::string {
    for (const auto &[K, V] : Rows)
      if (llvm::StringRef(K).startswith(Prefix))
        return V;
    ADD_FAILURE() << "no row '" << Prefix.str() << "'";
    return {};
  };
  const std::map<std::string, std::vector<std::string>> Expected = {
      {"manifest",
       {bytes(MaxManifestBytes), "values " + bytes(MaxManifestValueBytes)}},
      {"facts file, knowledge-base file",
       {bytes(MaxFactsFileSize), bytes(MaxKnowledgeBaseFileBytes)}},
      {"lock file", {bytes(MaxLockBytes)}},
      {"any file read", {bytes(MaxSharedObjectBytes)}},
      {"TOML", {std::to_string(MaxTomlDottedParts) + " dotted key parts"}},
      {"JSON", {std::to_string(MaxJsonDepth) + " levels", bytes(MaxJsonBytes)}},
      {"a probe's command",
       {seconds(DefaultCommandTimeout), bytes(DefaultOutputCap),
        "output exceeded " + std::to_string(DefaultOutputCap) + " bytes"}},
      {"the whole probe phase", {seconds(DefaultProbeDeadline)}},
      {"external probe plugin",
       {seconds(PluginLoadTimeout) + " to load",
        bytes(MaxPluginAnswerBytes) + " answer"}},
      {"libcuda query",
       {bytes(driver::MaxReportBytes),
        std::to_string(driver::MaxDevices) + " devices"}},
      {"probe cache entry", {bytes(MaxCacheEntryBytes)}},
      {"build step",
       {bytes(MaxStepLogBytes),
        "output exceeded " + std::to_string(MaxStepLogBytes) + " bytes"}},
      {"build cache entry", {bytes(MaxBuildCacheEntryBytes)}},
      {"load cache file", {bytes(MaxLoadCacheBytes)}},
  };
  for (const auto &[Row, Values] : Expected) {
    std::string Line = RowStarting(Row);
    for (const std::string &V : Values)
      EXPECT_NE(Line.find(V), std::string::npos)
          << "the README row '" << Row << "' does not say " << V << ":\n"
          << Line;
  }
  // $CUDADEPS_PROBE_TIMEOUT sets the phase to 1.5 times the command
  // timeout; the defaults keep that ratio.
  EXPECT_EQ(DefaultProbeDeadline, DefaultCommandTimeout * 3 / 2);
}

} // namespace
