#include "core/support/Hash.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SHA256.h"

namespace cudadeps {

std::string sha256Hex(llvm::StringRef Data) {
  llvm::SHA256 H;
  H.update(Data);
  return llvm::toHex(H.final(), /*LowerCase=*/true);
}

} // namespace cudadeps
