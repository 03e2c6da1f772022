#include "core/toolkit/NvccOutput.h"

#include "core/version/Version.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Regex.h"

namespace cudadeps {

/// The matched text when it is a version cudadeps can hold (every number
/// fits in 64 bits), else nothing: "release 11.73333…" is not a version.
static std::optional<std::string> asVersion(llvm::StringRef Text) {
  llvm::Expected<Version> V = Version::parse(Text);
  if (!V) {
    llvm::consumeError(V.takeError());
    return std::nullopt;
  }
  return Text.str();
}

std::optional<std::string> parseNvccVersionOutput(llvm::StringRef Out) {
  llvm::SmallVector<llvm::StringRef, 4> M;
  if (llvm::Regex("release [0-9]+\\.[0-9]+, V([0-9]+(\\.[0-9]+)+)").match(Out, &M))
    return asVersion(M[1]);
  if (llvm::Regex("release ([0-9]+\\.[0-9]+)").match(Out, &M))
    return asVersion(M[1]);
  return std::nullopt;
}

std::vector<std::string> parseNvccGpuCodeList(llvm::StringRef Out) {
  std::vector<std::string> Archs;
  llvm::Regex Sm("^sm_[0-9]+[a-z]?$");
  llvm::SmallVector<llvm::StringRef, 0> Lines;
  Out.split(Lines, '\n');
  for (llvm::StringRef Line : Lines) {
    Line = Line.trim();
    if (Sm.match(Line) && !llvm::is_contained(Archs, Line))
      Archs.push_back(Line.str());
  }
  return Archs;
}

} // namespace cudadeps
