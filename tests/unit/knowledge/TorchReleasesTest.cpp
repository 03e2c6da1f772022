//===- TorchReleasesTest.cpp - torch.toml against its sources -------------===//
//
// tests/fixtures/torch-releases/torch-X.Y.txt holds, for every torch minor
// PyPI lists (1.13 .. 2.15 on 2026-12-01), verbatim copies of what its
// torch.toml row was read from: the Requires-Python and CUDA Requires-Dist
// lines of each torch==X.Y.Z wheel's METADATA on PyPI, and the release
// matrix (CUDA_ARCHES_DICT, PYTHON_ARCHES_DICT, CURRENT_*_VERSION) of
// pytorch/test-infra's generate_binary_build_matrix.py at the commit that
// made X.Y the current release. Every row must say what its sources say.
//
//===----------------------------------------------------------------------===//

#include "core/manifest/KnowledgeBase.h"
#include "tests/unit/knowledge/FixtureFiles.h"
#include "tests/unit/version/Printers.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Regex.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

using namespace cudadeps;

namespace {

Version ver(llvm::StringRef Text) {
  llvm::Expected<Version> V = Version::parse(Text);
  if (!V) {
    ADD_FAILURE() << llvm::toString(V.takeError());
    return Version();
  }
  return *V;
}

/// The quoted strings of the `"release": [...]` entry of the dict whose
/// definition starts with Name (e.g. "CUDA_ARCHES_DICT = {").
std::optional<std::vector<std::string>> releaseList(llvm::StringRef Text,
                                                    llvm::StringRef Name) {
  size_t At = Text.find(Name);
  if (At == llvm::StringRef::npos)
    return std::nullopt;
  llvm::StringRef Dict = Text.substr(At);
  Dict = Dict.take_front(Dict.find("\n}"));
  size_t R = Dict.find("\"release\": [");
  if (R == llvm::StringRef::npos)
    return std::nullopt;
  llvm::StringRef List = Dict.substr(R + 12);
  List = List.take_front(List.find(']'));
  std::vector<std::string> Out;
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  List.split(Parts, ',', -1, false);
  for (llvm::StringRef P : Parts)
    Out.push_back(P.trim().trim('"').str());
  return Out;
}

struct TorchSources {
  std::string File;
  Version Torch;
  std::set<std::string> PypiCuda; // X.Y of each wheel's CUDA requirement
  unsigned Wheels = 0;
  std::optional<std::vector<std::string>> ReleaseCuda, ReleasePython;
  std::optional<std::string> CurrentVersion; // the release the matrix is for
};

TorchSources readSources(const std::string &Path) {
  TorchSources S;
  S.File = Path;
  auto Buf = llvm::MemoryBuffer::getFile(Path);
  if (!Buf) {
    ADD_FAILURE() << "cannot read " << Path;
    return S;
  }
  llvm::StringRef Text = (*Buf)->getBuffer();
  llvm::Regex TorchLine("^torch: ([0-9.]+)$");
  // nvidia-cuda-runtime-cu12==12.8.90, nvidia-cuda-runtime-cu11 (==11.7.99),
  // cuda-toolkit[cublas,...]==13.0.2
  llvm::Regex Cuda("^Requires-Dist: (nvidia-cuda-runtime-cu[0-9]+ ?\\(?|"
                   "cuda-toolkit\\[[^]]*\\])==([0-9]+)\\.([0-9]+)\\.");
  llvm::Regex Current("^CURRENT_(STABLE|CANDIDATE)_VERSION = \"([0-9.]+)\"");
  llvm::SmallVector<llvm::StringRef, 0> Lines;
  Text.split(Lines, '\n');
  std::optional<std::string> Stable, Candidate;
  for (llvm::StringRef Line : Lines) {
    llvm::SmallVector<llvm::StringRef, 4> M;
    if (TorchLine.match(Line, &M))
      S.Torch = ver(M[1]);
    else if (Line.startswith("--- PyPI torch=="))
      ++S.Wheels;
    else if (Cuda.match(Line, &M))
      S.PypiCuda.insert((M[2] + "." + M[3]).str());
    else if (Current.match(Line, &M))
      (M[1] == "STABLE" ? Stable : Candidate) = M[2].str();
  }
  S.ReleaseCuda = releaseList(Text, "CUDA_ARCHES_DICT = {");
  if (!S.ReleaseCuda) // the 2022 spelling
    S.ReleaseCuda = releaseList(Text, "CUDA_ACRHES_DICT = {");
  S.ReleasePython = releaseList(Text, "PYTHON_ARCHES_DICT = {");
  // The matrix is for the stable release when that is X.Y.*, else for the
  // candidate (2.14, the newest release the history read covers).
  std::string Prefix = S.Torch.str() + ".";
  if (Stable && llvm::StringRef(*Stable).startswith(Prefix))
    S.CurrentVersion = Stable;
  else if (Candidate && llvm::StringRef(*Candidate).startswith(Prefix))
    S.CurrentVersion = Candidate;
  return S;
}

std::vector<TorchSources> loadAll() {
  std::vector<TorchSources> Out;
  for (const std::string &P : fixtureTextFiles("torch-releases"))
    Out.push_back(readSources(P));
  return Out;
}

std::set<std::string> versions(const std::vector<Version> &V) {
  std::set<std::string> Out;
  for (const Version &X : V)
    Out.insert(X.str());
  return Out;
}

TEST(TorchReleases, EveryRowSaysWhatItsSourcesSay) {
  llvm::Expected<KnowledgeBase> KB =
      KnowledgeBase::loadDirectory(CUDADEPS_SOURCE_DIR "/manifests/cuda");
  ASSERT_TRUE(bool(KB)) << llvm::toString(KB.takeError());
  std::vector<TorchSources> All = loadAll();
  // 1.13 .. 2.15: every torch minor PyPI lists for CPython 3.11.
  ASSERT_EQ(All.size(), 17u);
  EXPECT_EQ(KB->torchRows().size(), All.size());
  for (const TorchSources &S : All) {
    SCOPED_TRACE(S.File);
    const TorchRow *Row = KB->torchRow(S.Torch);
    ASSERT_NE(Row, nullptr) << "torch.toml has no row for " << S.Torch.str();
    ASSERT_GT(S.Wheels, 0u);
    // Every patch release's PyPI wheel needs the same CUDA: the row's.
    ASSERT_EQ(S.PypiCuda.size(), 1u) << "CUDA requirements of the wheels";
    ASSERT_TRUE(Row->PypiCuda.has_value());
    EXPECT_EQ(Row->PypiCuda->str(), *S.PypiCuda.begin());
    if (S.ReleaseCuda) {
      ASSERT_TRUE(S.CurrentVersion.has_value())
          << "the release matrix copied is not for torch " << S.Torch.str();
      EXPECT_EQ(
          versions(Row->Cuda),
          std::set<std::string>(S.ReleaseCuda->begin(), S.ReleaseCuda->end()))
          << "cuda against CUDA_ARCHES_DICT[\"release\"]";
      EXPECT_TRUE(Row->CudaComplete);
    } else {
      // No release matrix read: only the PyPI build is known.
      EXPECT_EQ(versions(Row->Cuda), S.PypiCuda);
      EXPECT_FALSE(Row->CudaComplete);
    }
    if (S.ReleasePython && Row->Python) {
      for (const std::string &Py : *S.ReleasePython)
        EXPECT_TRUE(Row->Python->contains(ver(llvm::StringRef(Py).rtrim('t'))))
            << "python " << Py << " outside " << Row->PythonText;
    }
    EXPECT_NE(Row->Source.find("METADATA"), std::string::npos)
        << "the row does not cite the wheel METADATA it was read from";
  }
}

} // namespace
