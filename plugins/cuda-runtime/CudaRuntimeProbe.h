//===- CudaRuntimeProbe.h - the "cuda-runtime" probe: Python, torch, wheels ===//
//
// Describes the Python environment a build would use -- the first of
// $VIRTUAL_ENV, $CONDA_PREFIX, python3 on $PATH (PythonEnvironments.h) -- by
// reading files, never importing torch:
//  - python: the interpreter path and version (pyvenv.cfg, conda-meta, the
//    interpreter or lib/python3.X name). Only when the layout cannot be read
//    (a pyenv shim) the interpreter is run once, as a last resort, to print
//    its version and site-packages (`python3 -c ...`, without importing
//    anything beyond sys and sysconfig);
//  - torch: torch/version.py (`__version__`, `cuda`, which is None for CPU
//    and ROCm builds) and the C++11 ABI (`_GLIBCXX_USE_CXX11_ABI`) from the
//    dynamic symbols of torch/lib/libc10.so: a library compiled with the
//    C++11 ABI uses std::__cxx11::basic_string (`_ZNSt7__cxx11...`, the
//    `B5cxx11` ABI tag), one compiled without it the copy-on-write
//    std::string (`_ZNSs...`, `_ZNKSs...`). Torch 2.7 and newer wheels say
//    it nowhere else: their TorchConfig.cmake has no ABI line. Without a
//    readable libc10.so, the CMake config torch installs
//    (torch/share/cmake/Torch/TorchConfig.cmake, else Caffe2/Caffe2Targets.cmake
//    or Caffe2Config.cmake: the `_GLIBCXX_USE_CXX11_ABI=0|1` they pass on);
//    neither -> unknown (an inconsistency `probe` lists);
//  - packages: every *.dist-info / *.egg-info directory of the site-packages
//    (name and version from the directory name, else from METADATA/PKG-INFO;
//    names normalised: lowercase, runs of `-_.` -> `-`). The CUDA runtime of
//    NVIDIA's wheels (nvidia/cuda_runtime/lib/libcudart.so.12,
//    nvidia/cu13/lib/libcudart.so.13) is recorded as package "libcudart"
//    with the soname's major version (the highest when several).
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_PLUGINS_CUDA_RUNTIME_CUDARUNTIMEPROBE_H
#define CUDADEPS_PLUGINS_CUDA_RUNTIME_CUDARUNTIMEPROBE_H

#include "core/plugin/Probe.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <memory>
#include <optional>
#include <string>
#include <utility>

namespace cudadeps {

std::unique_ptr<Probe> createCudaRuntimeProbe();

namespace runtime {

struct TorchVersionFile {
  std::string Version;             // "2.11.0+cu128"
  std::optional<std::string> Cuda; // "12.8"; nullopt for `cuda = None`
};
/// Reads torch/version.py (`__version__ = '...'`, `cuda: Optional[str] = '12.8'`).
std::optional<TorchVersionFile> parseTorchVersionPy(llvm::StringRef Text);

/// The `_GLIBCXX_USE_CXX11_ABI=0|1` a torch CMake config passes on.
std::optional<bool> parseCxx11Abi(llvm::StringRef CMakeText);

/// The C++ ABI a library was compiled with, from its dynamic symbols (those it
/// needs and those it defines): true for std::__cxx11 strings or the cxx11
/// ABI tag, false for the pre-C++11 std::string only; nullopt for neither or
/// both.
std::optional<bool> cxx11AbiOfSymbols(llvm::ArrayRef<std::string> Needed,
                                      llvm::ArrayRef<std::string> Defined);

/// "flash-attn" for "Flash_Attn", "zope-interface" for "zope.interface".
std::string normalizeDistributionName(llvm::StringRef Name);

/// ("triton", "3.6.0") from "triton-3.6.0.dist-info" or
/// "foo-1.0-py3.11.egg-info"; nullopt for anything else.
std::optional<std::pair<std::string, std::string>>
parseDistInfoDirName(llvm::StringRef DirName);

/// ("name", "version") from METADATA / PKG-INFO headers.
std::optional<std::pair<std::string, std::string>>
parseMetadata(llvm::StringRef Text);

} // namespace runtime
} // namespace cudadeps

#endif
