//===- ToolkitStore.h - the toolkits cudadeps has provisioned ---------------===//
//
// `cudadeps toolkit install` assembles toolkits into
// $XDG_DATA_HOME/cudadeps/toolkits/<full version>/ (default
// ~/.local/share/cudadeps/toolkits), each a standard CUDA_HOME layout with
// an origin record (cudadeps-toolkit.json: where it came from, which
// wheels or runfile, when). Work in progress lives in hidden siblings
// (.partial-*, .removing-*) that are never mistaken for a toolkit; a
// toolkit appears only by one rename once it is complete and verified.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_TOOLKIT_TOOLKITSTORE_H
#define CUDADEPS_CORE_TOOLKIT_TOOLKITSTORE_H

#include "core/support/Process.h"
#include "core/version/Version.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cudadeps {

/// The name of the origin record in a provisioned toolkit's root.
inline constexpr llvm::StringLiteral ToolkitOriginFile = "cudadeps-toolkit.json";

/// Where a provisioned toolkit came from.
struct ToolkitOrigin {
  enum class Kind { Pypi, Wheels, Runfile };
  Kind How = Kind::Pypi;
  std::string Version; // the nvcc version, "13.0.88"
  std::string From;    // PyPI index, the wheel directory, the runfile
  /// Distribution -> version of each wheel used (empty for a runfile).
  std::vector<std::pair<std::string, std::string>> Components;
  std::string InstalledAt; // UTC, ISO 8601
  uint64_t Bytes = 0;      // size of the toolkit on disk

  /// "NVIDIA's wheels from PyPI", "wheels from /srv/wheels", "runfile
  /// /tmp/cuda_12.8.1_570.124.06_linux.run".
  std::string describe() const;
  std::string toJson() const;
  static llvm::Expected<ToolkitOrigin> fromJson(llvm::StringRef Text);
};

/// $XDG_DATA_HOME/cudadeps/toolkits, else $HOME/.local/share/cudadeps/
/// toolkits; "" when neither variable is set.
std::string toolkitStoreDir(const Environment &Env);

struct InstalledToolkit {
  std::string Root; // <store>/<version>
  Version Ver;
  /// nullopt when the origin record is missing or unreadable.
  std::optional<ToolkitOrigin> Origin;
};

/// The toolkits in \p Store (<store>/<version>/bin/nvcc), oldest first.
std::vector<InstalledToolkit> listInstalledToolkits(llvm::StringRef Store);

/// The origin record of the toolkit at \p Root, if it has one.
std::optional<ToolkitOrigin> readToolkitOrigin(llvm::StringRef Root);

/// The lock file that serialises installs and removals of \p VersionText.
std::string toolkitLockPath(llvm::StringRef Store, llvm::StringRef VersionText);

/// Removes <store>/<VersionText> under its lock: it is first renamed to a
/// hidden name, so the probe never sees half a toolkit. An error when it is
/// not installed.
llvm::Error removeToolkit(llvm::StringRef Store, llvm::StringRef VersionText);

/// The number of bytes in the regular files under \p Dir.
uint64_t treeSize(llvm::StringRef Dir);

} // namespace cudadeps

#endif
