//===- Facts.h - what a machine has, each fact with its source ------------===//
//
// The fact model of DESIGN.md section 3. Every fact carries a Source that says
// where it came from: probed (which plugin, from which file or command),
// declared (which facts file or project manifest) or overridden (which --set
// flag or environment variable). Absence is represented by an empty optional
// or an empty list: "no [[nvcc]]" means no toolkit.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_FACTS_FACTS_H
#define CUDADEPS_CORE_FACTS_FACTS_H

#include "core/version/Version.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cudadeps {

struct Source {
  enum class Kind { Probed, Declared, Overridden };
  Kind How = Kind::Declared;
  /// Probed: plugin name ("nvcc"); Declared: file path; Overridden:
  /// "--set torch.cuda=12.4" or "CUDADEPS_FACTS".
  std::string By;
  /// Probed: the file or command the answer came from
  /// ("/usr/local/cuda/bin/nvcc --version"); Declared: "file:line".
  std::string From;

  static Source probed(std::string Plugin, std::string From) {
    return {Kind::Probed, std::move(Plugin), std::move(From)};
  }
  static Source declared(std::string File, std::string Where = {}) {
    return {Kind::Declared, std::move(File), std::move(Where)};
  }
  static Source overridden(std::string By) {
    return {Kind::Overridden, std::move(By), {}};
  }
  /// "probed by nvcc from /usr/local/cuda/bin/nvcc --version", ...
  std::string describe() const;
  bool operator==(const Source &) const = default;
};

struct DriverFacts {
  std::optional<Version> KernelVersion; // kernel-mode driver, "570.86.15"
  std::optional<Version> Cuda;          // user-mode driver's max CUDA, "12.8"
  Source KernelSource;
  Source CudaSource;
  bool operator==(const DriverFacts &) const = default;
};

struct GpuFacts {
  std::string Name;
  Version ComputeCapability; // "9.0"
  Source From;
  /// "sm_90" for 9.0, "sm_120" for 12.0.
  std::string smArch() const;
  bool operator==(const GpuFacts &) const = default;
};

struct NvccFacts {
  std::string Path;
  Version Ver; // "12.8.93"
  std::optional<unsigned> MaxGcc;   // newest gcc major nvcc accepts
  std::optional<unsigned> MaxClang; // newest clang major nvcc accepts
  std::vector<std::string> Archs;   // "sm_75", ... (empty = unknown)
  Source From;
  bool operator==(const NvccFacts &) const = default;
};

struct CompilerFacts {
  std::string Path;
  std::string Family; // "gcc" | "clang"
  Version Ver;        // "13.3.0"
  Source From;
  /// The host compiler nvcc uses when no -ccbin is given ($NVCC_CCBIN, else
  /// g++ on PATH); the compiler probe also lists it first.
  bool NvccDefault = false;
  /// The variable by which the user named this compiler ("$NVCC_CCBIN",
  /// "$CUDAHOSTCXX" or "$CXX", in that precedence); empty when it was only
  /// found on PATH. An explicit choice is preferred when it is compatible.
  std::string ChosenBy = {};
  /// "clang 19.1.7 (/usr/bin/clang++-19, named by $CUDAHOSTCXX)".
  std::string label() const;
  bool operator==(const CompilerFacts &) const = default;
};

struct PythonFacts {
  std::string Path;
  Version Ver; // "3.12.3"
  Source From;
  /// "cp312"
  std::string tag() const;
  bool operator==(const PythonFacts &) const = default;
};

struct TorchFacts {
  Version Ver;                 // "2.11.0+cu128"
  std::optional<Version> Cuda; // torch.version.cuda; absent for CPU builds
  /// Nothing says whether torch is a CUDA build (a facts file without `cuda`
  /// whose version has no +cuXYZ / +cpu label); Cuda is then absent too.
  bool CudaUnknown = false;
  std::optional<bool> Cxx11Abi; // _GLIBCXX_USE_CXX11_ABI; absent: unknown
  Source From;
  /// Where Cxx11Abi came from (torch/lib/libc10.so, a CMake config, a key).
  Source AbiFrom = {};
  bool operator==(const TorchFacts &) const = default;
};

/// The CUDA version a torch local version label names: "cu128" -> 12.8,
/// "cu130" -> 13.0, "cu118" -> 11.8; "cpu" -> a CPU build (an empty
/// optional); anything else (no label, "rocm6.2") -> nullopt, not known.
std::optional<std::optional<Version>> torchCudaOfLocal(llvm::StringRef Local);

struct PlatformFacts {
  std::string Os;   // "linux"
  std::string Arch; // "x86_64"
  std::optional<unsigned> Cpus;
  std::optional<double> MemoryGib;
  std::optional<Version> Glibc;
  Source From;
  /// "linux_x86_64"
  std::string tag() const;
  bool operator==(const PlatformFacts &) const = default;
};

struct PackageFact {
  Version Ver;
  Source From;
  bool operator==(const PackageFact &) const = default;
};

/// Everything cudadeps knows about one machine.
struct Facts {
  std::optional<DriverFacts> Driver; // absent = no NVIDIA driver
  std::vector<GpuFacts> Gpus;
  std::vector<NvccFacts> Nvccs;
  std::vector<CompilerFacts> Compilers;
  std::optional<PythonFacts> Python;
  std::optional<TorchFacts> Torch;
  std::map<std::string, PackageFact> Packages; // installed distributions
  std::optional<PlatformFacts> Platform;

  bool operator==(const Facts &) const = default;
};

/// Adds what one probe found (\p From) to what others found (\p Into), for
/// several probes that each contribute part of the facts:
///  - driver: each of version and cuda is taken from From when From has it
///    (with its source); a driver in From creates one in Into;
///  - gpus: From's list replaces Into's when it is not empty (a GPU list is
///    one observation of the machine, not something to add up);
///  - nvcc and compiler: merged by path; an entry of From with a path Into
///    already has replaces it in place, other entries are appended in order;
///  - python, torch, platform: From's replaces Into's when present;
///  - packages: by name, From's wins.
/// Nothing in From removes anything from Into.
void mergeFacts(Facts &Into, const Facts &From);

} // namespace cudadeps

#endif
