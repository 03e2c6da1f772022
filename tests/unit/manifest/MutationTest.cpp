// Hostile input never crashes: deterministic mutations of the shipped
// manifests (byte flips, truncations, duplicated and deleted spans) must
// either load or fail with located diagnostics.
#include "ManifestTestUtil.h"

#include "llvm/Support/MemoryBuffer.h"

#include <gtest/gtest.h>

#include <random>

using namespace cudadeps;

namespace {

TEST(ManifestMutations, NeverCrashAndAlwaysLocate) {
  auto Buf = llvm::MemoryBuffer::getFile(std::string(CUDADEPS_SOURCE_DIR) +
                                         "/manifests/causal-conv1d.toml");
  ASSERT_TRUE(bool(Buf));
  const std::string Base = (*Buf)->getBuffer().str();
  std::mt19937 Rng(20261130);
  const char Alphabet[] = "[]{}\"'=.,#\n\\ abcsm_019\x00\xff\xc3";
  for (int I = 0; I < 1500; ++I) {
    std::string Text = Base;
    int Edits = 1 + Rng() % 4;
    for (int E = 0; E < Edits && !Text.empty(); ++E) {
      size_t Pos = Rng() % Text.size();
      switch (Rng() % 4) {
      case 0:
        Text[Pos] = Alphabet[Rng() % (sizeof(Alphabet) - 1)];
        break;
      case 1:
        Text.resize(Pos);
        break;
      case 2:
        Text.erase(Pos, Rng() % 40);
        break;
      default:
        Text.insert(Pos, Text.substr(Pos, Rng() % 60));
        break;
      }
    }
    llvm::Expected<Manifest> M = parseManifest(Text, "mutant.toml");
    if (M) {
      llvm::consumeError(lintManifest(*M));
      continue;
    }
    bool Located = true;
    llvm::handleAllErrors(M.takeError(), [&](const DiagnosticError &DE) {
      for (const Diagnostic &D : DE.diagnostics())
        Located &= D.Loc.Line > 0 && D.Loc.Column > 0;
    });
    ASSERT_TRUE(Located) << "mutation " << I << " gave an unlocated error";
  }
}

} // namespace
