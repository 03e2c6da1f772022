//===- LinearLintTest.cpp - many requirements cost linear time ------------===//
//
// Each requirement string of a project is located in the manifest's text;
// with a scan of the text per string, 40,000 strings took 95 s. The test
// runs in a child with an alarm far above the linear cost and far below the
// quadratic one.
//
//===----------------------------------------------------------------------===//
#include "core/manifest/ManifestLoader.h"
#include "tests/hostile/Bounded.h"

#include <gtest/gtest.h>

#include <string>

using namespace cudadeps;
using namespace cudadeps::test;

namespace {

std::string projectWith(unsigned N, bool Bad) {
  std::string T = "schema = 1\n[project]\nname = \"big\"\nrequires = [\n";
  for (unsigned I = 0; I < N; ++I)
    T += "  \"pkg-" + std::to_string(I) + (Bad ? " >=x" : " >=1.0") + "\",\n";
  T += "]\n";
  return T;
}

TEST(LinearLint, FortyThousandRequirementsLoadInSeconds) {
  std::string Good = projectWith(40000, false);
  std::string Bad = projectWith(40000, true);
  ASSERT_LT(Good.size(), MaxManifestBytes);
  BoundedOutcome O = runBounded(
      [&] {
        llvm::Expected<Manifest> M = parseManifest(Good, "big.toml");
        if (!M) {
          llvm::consumeError(M.takeError());
          return 1;
        }
        if (M->Proj->Requires.size() != 40000u)
          return 2;
        // Every string an error: each diagnostic shows its source line.
        llvm::Expected<Manifest> B = parseManifest(Bad, "big.toml");
        if (B)
          return 3;
        std::string Text = llvm::toString(B.takeError());
        if (Text.find("big.toml:40004:") == std::string::npos)
          return 4;
        return 0;
      },
      15, 2048);
  EXPECT_TRUE(O.Exited) << O.describe();
  EXPECT_EQ(O.Code, 0) << "check " << O.Code << " failed";
}

} // namespace
