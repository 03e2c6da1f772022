//===- FactsTestUtil.h - helpers for the facts tests ----------------------===//
#ifndef CUDADEPS_TESTS_UNIT_FACTS_FACTSTESTUTIL_H
#define CUDADEPS_TESTS_UNIT_FACTS_FACTSTESTUTIL_H

#include "core/facts/Facts.h"
#include "core/support/Diagnostic.h"

#include "llvm/Support/Error.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace cudadeps::testing {

inline Version ver(llvm::StringRef Text) {
  return llvm::cantFail(Version::parse(Text));
}

/// The diagnostics of a DiagnosticError; a test failure for any other error
/// or for success.
inline std::vector<Diagnostic> diagnosticsOf(llvm::Error E) {
  std::vector<Diagnostic> Out;
  if (!E) {
    ADD_FAILURE() << "expected an error, got success";
    return Out;
  }
  llvm::handleAllErrors(
      std::move(E),
      [&](const DiagnosticError &D) {
        Out.insert(Out.end(), D.diagnostics().begin(), D.diagnostics().end());
      },
      [&](const llvm::ErrorInfoBase &Info) {
        ADD_FAILURE() << "not a DiagnosticError: " << Info.message();
      });
  return Out;
}

template <typename T>
std::vector<Diagnostic> diagnosticsOf(llvm::Expected<T> &&Value) {
  if (Value) {
    ADD_FAILURE() << "expected an error, got a value";
    return {};
  }
  return diagnosticsOf(Value.takeError());
}

/// "file:line:col" of a diagnostic.
inline std::string locationOf(const Diagnostic &D) {
  return D.Loc.File + ":" + std::to_string(D.Loc.Line) + ":" +
         std::to_string(D.Loc.Column);
}

/// Every source of \p F, in a fixed order.
inline std::vector<Source *> sourcesOf(Facts &F) {
  std::vector<Source *> Out;
  if (F.Driver) {
    Out.push_back(&F.Driver->KernelSource);
    Out.push_back(&F.Driver->CudaSource);
  }
  for (GpuFacts &G : F.Gpus)
    Out.push_back(&G.From);
  for (NvccFacts &N : F.Nvccs)
    Out.push_back(&N.From);
  for (CompilerFacts &C : F.Compilers)
    Out.push_back(&C.From);
  if (F.Python)
    Out.push_back(&F.Python->From);
  if (F.Torch) {
    Out.push_back(&F.Torch->From);
    Out.push_back(&F.Torch->AbiFrom);
  }
  for (auto &Entry : F.Packages)
    Out.push_back(&Entry.second.From);
  if (F.Platform)
    Out.push_back(&F.Platform->From);
  return Out;
}

/// \p F with every source reset, to compare values only.
inline Facts withoutSources(Facts F) {
  for (Source *S : sourcesOf(F))
    *S = Source();
  return F;
}

/// A machine with every kind of fact, several toolkits and compilers, all
/// three kinds of source and strings that need escaping.
inline Facts richFacts() {
  Facts F;
  F.Driver = DriverFacts{
      ver("570.86.15"), ver("12.8"),
      Source::probed("driver", "/proc/driver/nvidia/version"),
      Source::probed("driver", "cuDriverGetVersion in a child process")};
  F.Gpus.push_back({"NVIDIA H100 80GB HBM3", ver("9.0"),
                    Source::probed("driver", "cuDeviceGetAttribute")});
  F.Gpus.push_back({"NVIDIA GeForce RTX 5090", ver("12.0"),
                    Source::probed("driver", "cuDeviceGetAttribute")});
  F.Gpus.push_back({"NVIDIA B300", ver("10.3"),
                    Source::declared("machine.toml", "machine.toml:7")});
  F.Nvccs.push_back(
      {"/usr/local/cuda-12.8/bin/nvcc",
       ver("12.8.93"),
       14u,
       19u,
       {"sm_75", "sm_80", "sm_90", "sm_90a", "sm_100f", "sm_120"},
       Source::probed("nvcc", "/usr/local/cuda-12.8/bin/nvcc --version")});
  F.Nvccs.push_back({"/opt/with \"quotes\" and \\backslash\\/nvcc",
                     ver("13.0.88"),
                     std::nullopt,
                     std::nullopt,
                     {},
                     Source::overridden("--set nvcc.path=x")});
  F.Compilers.push_back(
      {"/usr/bin/g++-13", "gcc", ver("13.3.0"),
       Source::probed("compiler", "/usr/bin/g++-13 -dumpfullversion")});
  F.Compilers.back().NvccDefault = true; // what nvcc runs without -ccbin
  F.Compilers.push_back({"/usr/lib/llvm-19/bin/clang++", "clang", ver("19.1.7"),
                         Source::probed("compiler", "clang++ --version")});
  F.Compilers.back().ChosenBy = "$CUDAHOSTCXX"; // the user named it
  F.Python = PythonFacts{"/home/ünïcødé/venv\tbin/python3", ver("3.12.3"),
                         Source::probed("python", "sys.version_info")};
  F.Torch = TorchFacts{.Ver = ver("2.11.0+cu128"),
                       .Cuda = ver("12.8"),
                       .Cxx11Abi = true,
                       .From = Source::probed("torch", "torch/version.py")};
  F.Packages["triton"] = {ver("3.6.0"),
                          Source::probed("python", "triton-3.6.0.dist-info")};
  F.Packages["zope.interface"] = {
      ver("7.2"), Source::overridden("--set zope.interface=7.2")};
  F.Packages["causal-conv1d"] = {ver("1.5.0.post8"),
                                 Source::declared("f.toml", "f.toml:3")};
  F.Platform = PlatformFacts{
      "linux",     "x86_64",    64u,
      503.7421875, ver("2.36"), Source::probed("platform", "uname, sysconf")};
  return F;
}

} // namespace cudadeps::testing

#endif
