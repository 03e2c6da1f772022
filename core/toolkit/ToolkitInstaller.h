//===- ToolkitInstaller.h - assembling a CUDA toolkit without root ---------===//
//
// `cudadeps toolkit install VERSION [--from DIR|FILE]`: a standard CUDA_HOME
// layout (bin/nvcc, include with the crt headers and CCCL, lib64 with the
// runtime and its unversioned link names, nvvm) assembled from NVIDIA's
// wheels -- downloaded by pip with the component versions the knowledge base
// pins (manifests/cuda/provisioning.toml), or taken from a local directory
// of wheels -- or installed by NVIDIA's runfile (`--silent --toolkit
// --toolkitpath=...`, no root).
//
// Everything happens in a hidden temporary directory beside the final one,
// under a per-version lock: download, unpacking (archive members checked,
// see WheelArchive.h), layout, then verification (`nvcc --version` gives
// the expected version, a test kernel compiles and links for one arch).
// Only a verified toolkit is renamed into place; an interrupted or failed
// install leaves nothing the nvcc probe would find.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_TOOLKIT_TOOLKITINSTALLER_H
#define CUDADEPS_CORE_TOOLKIT_TOOLKITINSTALLER_H

#include "core/manifest/KnowledgeBase.h"
#include "core/support/Process.h"
#include "core/toolkit/ToolkitStore.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <chrono>
#include <string>
#include <vector>

namespace cudadeps {

/// The CUDA wheels a toolkit is assembled from, in unpacking order.
/// nvidia-cuda-nvcc comes first: it defines the layout.
llvm::ArrayRef<llvm::StringRef> toolkitWheelComponents();

/// One wheel file chosen for a component.
struct ChosenWheel {
  std::string Component; // "nvidia-cuda-nvcc"
  Version Ver;
  std::string Path; // the .whl (empty until downloaded)
};

/// What an install will do, decided before anything is written.
struct InstallPlan {
  ToolkitOrigin::Kind How = ToolkitOrigin::Kind::Pypi;
  std::string Version;  // the full nvcc version expected, "13.0.88" (may be
                        // partial for a runfile: "12.8")
  std::string From;     // directory of wheels or runfile; "" for PyPI
  std::vector<ChosenWheel> Wheels; // empty for a runfile
  std::optional<unsigned> DownloadMiB;
  std::optional<unsigned> InstalledMiB;
  std::string Source; // the knowledge-base citation, if any
};

struct InstallRequest {
  std::string Version; // as given: "13", "13.0", "13.0.88"
  std::string From;    // "" = PyPI; a directory of wheels; a runfile
  std::string Python;  // the interpreter whose pip downloads (PyPI only)
  std::string Store;   // toolkitStoreDir()
  /// The machine's architecture as wheels spell it: x86_64, aarch64.
  std::string Machine = "x86_64";
  /// pip's and the runfile's limit; nvcc's checks get VerifyTimeout.
  std::chrono::milliseconds InstallTimeout{std::chrono::minutes(30)};
  std::chrono::milliseconds VerifyTimeout{std::chrono::minutes(5)};
  /// At most this many bytes are unpacked (all wheels together).
  uint64_t MaxBytes = uint64_t(16) << 30;
};

class InstallObserver {
public:
  virtual ~InstallObserver() = default;
  /// A step begins: "downloading 5 wheels with /usr/bin/python3 -m pip",
  /// "unpacking nvidia_cuda_nvcc-13.0.88-...whl", "verifying ...".
  virtual void onStep(llvm::StringRef) {}
};

struct InstallResult {
  std::string Root; // <store>/<version>
  ToolkitOrigin Origin;
  bool AlreadyInstalled = false;
  std::string VerifiedArch; // the arch the test kernel was compiled for
};

/// Decides what installing \p R means: which version, which wheels (from
/// the knowledge base's pins, or the best match in a wheel directory), or
/// the runfile. No file is written.
llvm::Expected<InstallPlan> planToolkitInstall(const InstallRequest &R,
                                               const KnowledgeBase &KB);

/// Carries out \p Plan.
llvm::Expected<InstallResult> installToolkit(const InstallRequest &R,
                                             const InstallPlan &Plan,
                                             ProcessRunner &Runner,
                                             InstallObserver &Observer);

/// The layout step on an unpacked wheel tree at \p Root: lib becomes lib64
/// (lib is left as a link to it) and every versioned shared library without
/// an unversioned name gets one (libcudart.so -> libcudart.so.13).
llvm::Error layOutCudaHome(llvm::StringRef Root);

} // namespace cudadeps

#endif
