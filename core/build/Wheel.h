//===- Wheel.h - PEP 427 wheel names and the local tag of a build ---------===//
//
// A built wheel is stored under its PEP 427 name with a PEP 440 local
// version that says what it was built for: causal_conv1d-1.6.1+cu130torch2.11
// sm90-cp312-cp312-linux_x86_64.whl. Renaming the file is not enough (pip
// checks the name against the metadata), so retagWheel rewrites it with the
// facts' Python's zipfile module: the .dist-info directory, METADATA's
// Version and RECORD's hashes.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_BUILD_WHEEL_H
#define CUDADEPS_CORE_BUILD_WHEEL_H

#include "core/facts/Facts.h"
#include "core/plan/Resolution.h"
#include "core/support/Process.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace cudadeps {

struct WheelName {
  std::string Distribution; // causal_conv1d
  std::string Version;      // 1.6.1+cu130torch2.11sm90
  std::string Build;        // optional build tag
  std::string Python;       // cp312
  std::string Abi;          // cp312
  std::string Platform;     // linux_x86_64

  static std::optional<WheelName> parse(llvm::StringRef FileName);
  std::string fileName() const;
};

/// "cu130torch2.11sm90" (nvcc 13.0, torch 2.11, sm_90); "sm90.120" for two
/// archs; parts without a value are left out.
std::string localTagFor(const PackageResolution &PR, const Facts &F);

/// Writes \p Wheel with \p Local appended to its version into \p OutDir
/// (with \p Python) and returns the new path. A wheel whose version already
/// ends in that tag is copied as is.
llvm::Expected<std::string> retagWheel(ProcessRunner &Runner,
                                       llvm::StringRef Python,
                                       llvm::StringRef Wheel,
                                       llvm::StringRef OutDir,
                                       llvm::StringRef Local);

} // namespace cudadeps

#endif
