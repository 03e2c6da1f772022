//===- SyntheticWheels.h - fake NVIDIA toolkit wheels for install tests ----===//
//
// makeSyntheticWheels writes the five wheels of a CUDA 13 toolkit into a
// directory, with NVIDIA's file names and nvidia/cu13/ layout, holding a fake
// bin/nvcc (a shell script), headers and libraries. The fake nvcc answers
// --version and --list-gpu-code, and "compiles" only when the layout a real
// one needs is there: include/crt/host_config.h, CCCL under include/cccl,
// lib64/libcudart.so (the link name -lcudart needs) and nvvm/bin/cicc.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_TESTS_SUPPORT_SYNTHETICWHEELS_H
#define CUDADEPS_TESTS_SUPPORT_SYNTHETICWHEELS_H

#include "core/toolkit/WheelArchive.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <string>
#include <vector>

namespace cudadeps::test {

/// A fake nvcc reporting \p Version.
inline std::string syntheticNvcc(llvm::StringRef Version) {
  std::string Release = Version.rsplit('.').first.str();
  return "#!/bin/sh\n"
         "top=$(cd \"$(dirname \"$0\")/..\" && pwd)\n"
         "case \"$1\" in\n"
         "  --version) echo 'nvcc: NVIDIA (R) Cuda compiler driver'\n"
         "    echo 'Cuda compilation tools, release " + Release + ", V" +
         Version.str() + "'; exit 0;;\n"
         "  --list-gpu-code) printf 'sm_75\\nsm_80\\nsm_90\\n'; exit 0;;\n"
         "esac\n"
         "for f in include/crt/host_config.h include/cccl/cub/version.cuh "
         "include/cuda_runtime.h lib64/libcudart.so nvvm/bin/cicc; do\n"
         "  [ -e \"$top/$f\" ] || { echo \"kernel.cu: fatal error: $f: No such "
         "file or directory\" >&2; exit 1; }\n"
         "done\n"
         "out=''; while [ $# -gt 0 ]; do [ \"$1\" = -o ] && out=$2; shift; done\n"
         "[ -n \"$out\" ] && echo compiled > \"$out\"\n"
         "exit 0\n";
}

struct SyntheticWheelOptions {
  std::string Version = "13.0.88";     // nvcc, crt, nvvm
  std::string Runtime = "13.0.88";     // nvidia-cuda-runtime
  std::string Cccl = "13.0.85";        // nvidia-cuda-cccl
  std::string NvccReports;             // what the fake nvcc says; = Version
  std::string CcclPrefix = "nvidia/cu13/"; // where cccl's headers are stored
  std::vector<ArchiveEntry> ExtraNvccMembers; // hostile members, ...
};

inline std::string wheelFileName(llvm::StringRef Dist, llvm::StringRef Ver) {
  return (Dist + "-" + Ver +
          "-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl")
      .str();
}

/// Writes the five wheels into \p Dir; an error when one cannot be written.
inline llvm::Error makeSyntheticWheels(llvm::StringRef Dir,
                                       const SyntheticWheelOptions &O = {}) {
  auto Path = [&](llvm::StringRef Dist, llvm::StringRef Ver) {
    llvm::SmallString<256> P(Dir);
    llvm::sys::path::append(P, wheelFileName(Dist, Ver));
    return std::string(P);
  };
  auto Info = [](llvm::StringRef Dist, llvm::StringRef Ver) {
    return ArchiveEntry{(Dist + "-" + Ver + ".dist-info/METADATA").str(),
                        ("Name: " + Dist + "\nVersion: " + Ver + "\n").str()};
  };
  std::string P = "nvidia/cu13/";
  std::vector<ArchiveEntry> Nvcc = {
      {P + "bin/", "", 0755},
      {P + "bin/nvcc",
       syntheticNvcc(O.NvccReports.empty() ? O.Version : O.NvccReports), 0755},
      {P + "bin/nvcc.profile", "TOP = $(_HERE_)/..\n"},
      {P + "bin/ptxas", "#!/bin/sh\nexit 0\n", 0755},
      Info("nvidia_cuda_nvcc", O.Version)};
  for (const ArchiveEntry &E : O.ExtraNvccMembers)
    Nvcc.push_back(E);
  if (llvm::Error E = writeArchive(Path("nvidia_cuda_nvcc", O.Version), Nvcc))
    return E;
  if (llvm::Error E = writeArchive(
          Path("nvidia_cuda_crt", O.Version),
          {{P + "include/crt/host_config.h", "#if __GNUC__ > 15\n#error -- "
                                             "unsupported GNU version!\n#endif\n"},
           Info("nvidia_cuda_crt", O.Version)}))
    return E;
  if (llvm::Error E = writeArchive(
          Path("nvidia_nvvm", O.Version),
          {{P + "nvvm/bin/cicc", "#!/bin/sh\nexit 0\n", 0755},
           {P + "lib/libnvvm.so.4", "ELF"},
           Info("nvidia_nvvm", O.Version)}))
    return E;
  if (llvm::Error E = writeArchive(
          Path("nvidia_cuda_runtime", O.Runtime),
          {{P + "include/cuda_runtime.h", "#pragma once\n"},
           {P + "lib/libcudart.so.13", "ELF"},
           {P + "lib/libcudart_static.a", "!<arch>\n"},
           Info("nvidia_cuda_runtime", O.Runtime)}))
    return E;
  return writeArchive(
      Path("nvidia_cuda_cccl", O.Cccl),
      {{O.CcclPrefix + "include/cccl/cub/version.cuh", "#pragma once\n"},
       {O.CcclPrefix + "include/cccl/thrust/version.h", "#pragma once\n"},
       Info("nvidia_cuda_cccl", O.Cccl)});
}

} // namespace cudadeps::test

#endif
