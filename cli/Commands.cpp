#include "cli/Commands.h"

namespace cudadeps::cli {

llvm::ArrayRef<Command> commands() {
  return {};
}

} // namespace cudadeps::cli
