#include "core/toolkit/NvccOutput.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Regex.h"

namespace cudadeps {

std::optional<std::string> parseNvccVersionOutput(llvm::StringRef Out) {
  llvm::SmallVector<llvm::StringRef, 4> M;
  if (llvm::Regex("release [0-9]+\\.[0-9]+, V([0-9]+(\\.[0-9]+)+)").match(Out, &M))
    return M[1].str();
  if (llvm::Regex("release ([0-9]+\\.[0-9]+)").match(Out, &M))
    return M[1].str();
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
