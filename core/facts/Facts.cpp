//===- Facts.cpp - the fact model -----------------------------------------===//

#include "core/facts/Facts.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>

using namespace llvm;

namespace cudadeps {

std::string CompilerFacts::label() const {
  return Family + " " + Ver.str() + " (" + Path +
         (ChosenBy.empty() ? "" : ", named by " + ChosenBy) + ")";
}

std::string Source::describe() const {
  switch (How) {
  case Kind::Probed:
    if (By.empty())
      return From.empty() ? "probed" : "probed from " + From;
    return From.empty() ? "probed by " + By
                        : "probed by " + By + " from " + From;
  case Kind::Declared:
    if (!From.empty())
      return "declared in " + From;
    return By.empty() ? "declared" : "declared in " + By;
  case Kind::Overridden:
    return By.empty() ? "overridden" : "overridden by " + By;
  }
  llvm_unreachable("bad source kind");
}

std::optional<std::optional<Version>> torchCudaOfLocal(llvm::StringRef Local) {
  if (Local == "cpu")
    return std::optional<Version>();
  llvm::StringRef Digits = Local;
  uint64_t N = 0;
  if (!Digits.consume_front("cu") || Digits.size() < 3 || Digits.size() > 4 ||
      Digits.getAsInteger(10, N))
    return std::nullopt;
  return std::optional<Version>(Version({N / 10, N % 10}));
}

std::string GpuFacts::smArch() const {
  return "sm_" + std::to_string(ComputeCapability.major()) +
         std::to_string(ComputeCapability.minor());
}

std::string PythonFacts::tag() const {
  return "cp" + std::to_string(Ver.major()) + std::to_string(Ver.minor());
}

std::string PlatformFacts::tag() const {
  // Wheel platform tags are lowercase with '-' and '.' turned into '_'.
  std::string Tag = StringRef(Os).lower() + "_" + StringRef(Arch).lower();
  std::replace_if(
      Tag.begin(), Tag.end(), [](char C) { return C == '-' || C == '.'; }, '_');
  return Tag;
}

/// Replaces or appends \p Entry in \p List: an entry with the same path is
/// replaced in place, a new path is appended.
template <typename T>
static void mergeByPath(std::vector<T> &List, const T &Entry) {
  for (T &Existing : List) {
    if (Existing.Path == Entry.Path) {
      Existing = Entry;
      return;
    }
  }
  List.push_back(Entry);
}

void mergeFacts(Facts &Into, const Facts &From) {
  if (From.Driver) {
    if (!Into.Driver) {
      Into.Driver = From.Driver;
    } else {
      if (From.Driver->KernelVersion) {
        Into.Driver->KernelVersion = From.Driver->KernelVersion;
        Into.Driver->KernelSource = From.Driver->KernelSource;
      }
      if (From.Driver->Cuda) {
        Into.Driver->Cuda = From.Driver->Cuda;
        Into.Driver->CudaSource = From.Driver->CudaSource;
      }
    }
  }
  if (!From.Gpus.empty())
    Into.Gpus = From.Gpus;
  for (const NvccFacts &N : From.Nvccs)
    mergeByPath(Into.Nvccs, N);
  for (const CompilerFacts &C : From.Compilers)
    mergeByPath(Into.Compilers, C);
  if (From.Python)
    Into.Python = From.Python;
  if (From.Torch)
    Into.Torch = From.Torch;
  for (const auto &[Name, Package] : From.Packages)
    Into.Packages[Name] = Package;
  if (From.Platform)
    Into.Platform = From.Platform;
}

} // namespace cudadeps
