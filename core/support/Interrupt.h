//===- Interrupt.h - a request to stop, set by the CLI's SIGINT handler ----===//
//
// Long work (fetches, builds, waiting for a lock) polls interruptRequested()
// and stops cleanly: the child process is killed, temporary directories are
// removed, and the caller gets an InterruptedError. The CLI sets the flag
// from its signal handler (async-signal-safe: one atomic store) and exits
// with code 130.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_SUPPORT_INTERRUPT_H
#define CUDADEPS_CORE_SUPPORT_INTERRUPT_H

#include "llvm/Support/Error.h"

#include <string>

namespace cudadeps {

void requestInterrupt();
bool interruptRequested();
/// Clears the flag (tests).
void clearInterrupt();

/// The error long work returns when it stopped on request.
class InterruptedError : public llvm::ErrorInfo<InterruptedError> {
public:
  static char ID;
  explicit InterruptedError(std::string What) : What(std::move(What)) {}
  void log(llvm::raw_ostream &OS) const override;
  std::error_code convertToErrorCode() const override;
  const std::string &what() const { return What; }

private:
  std::string What;
};

llvm::Error makeInterrupted(const llvm::Twine &What);

} // namespace cudadeps

#endif
