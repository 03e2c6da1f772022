//===- BuildMatrix.cpp - the prebuilt binaries a maintainer's CI should build
//===//
#include "core/plan/BuildMatrix.h"

#include "core/support/Diagnostic.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <spdlog/spdlog.h>

using namespace llvm;

namespace cudadeps {

std::optional<Version> pythonOfWheelTag(StringRef Tag) {
  if (!Tag.consume_front("cp") || Tag.size() < 2 || Tag.size() > 4 ||
      !all_of(Tag, isDigit) || Tag.front() == '0')
    return std::nullopt;
  uint64_t Major = Tag.front() - '0', Minor = 0;
  if (Tag.drop_front().getAsInteger(10, Minor))
    return std::nullopt;
  return Version({Major, Minor});
}

std::optional<Version> newestNvccOfMajor(const KnowledgeBase &KB,
                                         uint64_t Major,
                                         const VersionSet &Nvcc) {
  std::optional<Version> Best;
  for (const ToolkitRow &Row : KB.toolkits()) {
    if (Row.Range.isEmpty())
      continue;
    const Bound &Lower = Row.Range.intervals().front().Lower;
    if (!Lower.Value || Lower.Value->major() != Major)
      continue;
    // "12.9" rather than a sentinel such as 12.9.dev0.
    Version V(Lower.Value->release());
    if (!Row.Range.contains(V) || !Nvcc.contains(V))
      continue;
    if (!Best || V > *Best)
      Best = V;
  }
  return Best;
}

static const Release *chooseRelease(const Package &P,
                                    const std::optional<Version> &Wanted,
                                    std::string &Why) {
  if (Wanted) {
    const Release *R = P.findRelease(*Wanted);
    if (!R)
      Why = "package '" + P.Name + "' has no release " + Wanted->str();
    else if (!R->Prebuilt)
      Why = "release " + R->VersionText + " of '" + P.Name +
            "' declares no [release.prebuilt] matrix";
    return R && R->Prebuilt ? R : nullptr;
  }
  const Release *Best = nullptr;
  for (const Release &R : P.Releases)
    if (R.Prebuilt && (!Best || R.Ver > Best->Ver))
      Best = &R;
  if (!Best)
    Why = "no release of '" + P.Name +
          "' declares a [release.prebuilt] matrix; there is nothing "
          "prebuilt to build";
  return Best;
}

Expected<BuildMatrix> computeBuildMatrix(const Manifest &M,
                                         const KnowledgeBase &KB,
                                         const std::optional<Version> &Wanted) {
  // Errors are located at the manifest: where a [package] or a
  // [release.prebuilt] table would have to be.
  auto LocatedError = [&](SourceLocation Loc, const std::string &Message,
                          std::string Hint = {}) -> Error {
    Loc.File = M.File;
    if (!Loc.Line)
      Loc.Line = Loc.Column = 1;
    return make_error<DiagnosticError>(
        Loc, Message, sourceLine(M.Text, Loc.Line), std::move(Hint));
  };
  if (!M.Pkg)
    return LocatedError(
        M.Proj ? M.Proj->Loc : SourceLocation{},
        "the manifest defines no [package]: a build matrix lists "
        "the prebuilt binaries of a package",
        M.Proj ? "this is a [project] manifest; run matrix on the "
                 "manifest of one of its packages"
               : "");
  const Package &P = *M.Pkg;
  std::string Why;
  const Release *R = chooseRelease(P, Wanted, Why);
  if (!R) {
    const Release *Named = Wanted ? P.findRelease(*Wanted) : nullptr;
    return LocatedError(Named ? Named->Loc : P.Loc, Why);
  }
  const PrebuiltMatrix &Matrix = *R->Prebuilt;
  RequirementMap Req = P.requirementsFor(*R);
  auto NvccIt = Req.find("nvcc");
  VersionSet NvccRange =
      NvccIt == Req.end() ? VersionSet::any() : NvccIt->second.Range;

  BuildMatrix Out;
  Out.Package = P.Name;
  Out.ReleaseText = R->VersionText;
  std::vector<std::optional<bool>> Abis;
  for (bool B : Matrix.Cxx11Abi)
    Abis.push_back(B);
  if (Abis.empty())
    Abis.push_back(std::nullopt);
  // An absent dimension is one unnamed value, not zero rows.
  std::vector<std::string> Pythons = Matrix.Python;
  if (Pythons.empty())
    Pythons.push_back("");
  std::vector<std::string> Platforms = Matrix.Platform;
  if (Platforms.empty())
    Platforms.push_back("");

  for (const Version &Torch : Matrix.Torch) {
    const TorchRow *TRow = KB.torchRow(Torch);
    for (const Version &Cuda : Matrix.Cuda) {
      uint64_t Major = Cuda.major();
      auto Drop = [&](StringRef Tag, const std::string &Reason) {
        spdlog::debug("matrix: drop torch {} cuda {} {}: {}", Torch.str(),
                      Cuda.str(), Tag.str(), Reason);
        Out.Dropped.push_back({Torch, Cuda, Tag.str(), Reason});
      };
      if (TRow && !TRow->hasCudaMajor(Major)) {
        std::vector<std::string> Cs;
        for (const Version &C : TRow->Cuda)
          Cs.push_back(C.str());
        Drop("", "torch " + Torch.str() + " was published for CUDA " +
                     join(Cs, ", ") + " only");
        continue;
      }
      std::optional<Version> Nvcc = newestNvccOfMajor(KB, Major, NvccRange);
      if (!Nvcc) {
        Drop("", "no known nvcc " + std::to_string(Major) +
                     ".x satisfies the package's nvcc requirement");
        continue;
      }
      const ToolkitRow *Kit = KB.toolkit(*Nvcc);
      for (const std::string &Tag : Pythons) {
        std::optional<Version> Py = pythonOfWheelTag(Tag);
        if (TRow && TRow->Python && Py && !TRow->Python->contains(*Py)) {
          Drop(Tag, "torch " + Torch.str() + " was published for python " +
                        TRow->PythonText + " only");
          continue;
        }
        for (const std::optional<bool> &Abi : Abis)
          for (const std::string &Platform : Platforms) {
            if (Matrix.excludes(Torch, Major, Tag, Abi, Platform)) {
              spdlog::debug("matrix: torch {} cuda {} {} {}: excluded by the "
                            "release's matrix",
                            Torch.str(), Cuda.str(), Tag, Platform);
              continue;
            }
            MatrixRow Row;
            Row.Torch = Torch;
            Row.CudaMajor = Major;
            Row.PythonTag = Tag;
            Row.Python = Py;
            Row.Cxx11Abi = Abi;
            Row.Platform = Platform;
            Row.Nvcc = *Nvcc;
            Row.Gcc = Kit ? Kit->MaxGcc : std::nullopt;
            Row.TorchKnown = TRow != nullptr;
            Out.Rows.push_back(std::move(Row));
          }
      }
    }
  }
  return Out;
}

} // namespace cudadeps
