#include "core/support/Interrupt.h"

#include "llvm/Support/Errc.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>

namespace cudadeps {

static std::atomic<bool> Interrupted{false};

void requestInterrupt() { Interrupted.store(true); }
bool interruptRequested() { return Interrupted.load(); }
void clearInterrupt() { Interrupted.store(false); }

char InterruptedError::ID = 0;

void InterruptedError::log(llvm::raw_ostream &OS) const {
  OS << "interrupted while " << What;
}

std::error_code InterruptedError::convertToErrorCode() const {
  return std::make_error_code(std::errc::interrupted);
}

llvm::Error makeInterrupted(const llvm::Twine &What) {
  return llvm::make_error<InterruptedError>(What.str());
}

} // namespace cudadeps
