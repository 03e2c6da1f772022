//===- Overrides.h - --set KEY=VALUE and CUDADEPS_FACTS -------------------===//
//
// Where the facts come from, in order of precedence (DESIGN.md section 3):
//
//   1. --facts FILE       the whole description of the machine, nothing probed
//   2. CUDADEPS_FACTS=FILE the same, from the environment
//   3. probing            the plugins look at this machine
//
// and then every --set KEY=VALUE is applied, in order, on top of whichever
// of the three gave the facts. An empty VALUE means absent (like conda's
// CONDA_OVERRIDE_CUDA=""): --set nvcc= is a machine without a CUDA toolkit.
//
// Keys (a value is a version unless said otherwise):
//
//   driver              empty only: no NVIDIA driver
//   driver.version      kernel-mode driver version ("570.86.15")
//   driver.cuda         highest CUDA the driver supports ("12.8")
//   gpu                 compute capabilities, comma-separated ("9.0,8.6"):
//                       replaces the GPUs; empty: no GPU
//   nvcc                replaces all toolkits by one at path "(overridden)";
//                       empty: no toolkit
//   nvcc.path           path of the toolkit (there must be exactly one)
//   nvcc.max_gcc        newest gcc major, for every toolkit (empty: unknown)
//   nvcc.max_clang      newest clang major, for every toolkit (empty: unknown)
//   nvcc.archs          sm_XX list, comma-separated, for every toolkit
//   gcc, clang          replaces the compilers of that family by one at path
//                       "(overridden)"; empty: none of that family
//   gcc.path, clang.path path of the compiler of that family (exactly one)
//   python              Python version (keeps the path); empty: no Python
//   python.path         path of the Python interpreter
//   torch               torch version; a "+cuXYZ" label also sets torch.cuda,
//                       "+cpu" clears it; empty: no torch
//   torch.cuda          torch.version.cuda; empty: a CPU build
//   torch.cxx11_abi     true or false; empty: unknown
//   platform            empty only: nothing known about the platform
//   platform.os, platform.arch, platform.cpus, platform.memory_gib,
//   platform.glibc
//   packages.NAME       installed Python distribution; empty: not installed
//   triton              the same as packages.triton (a fact of its own)
//
// Any other bare KEY is an error with "did you mean" ("tirton", "foo"): a
// Python distribution is always named explicitly, packages.NAME.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_FACTS_OVERRIDES_H
#define CUDADEPS_CORE_FACTS_OVERRIDES_H

#include "core/facts/Facts.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace cudadeps {

/// The keys applyOverride() knows (without the packages.NAME form).
llvm::ArrayRef<llvm::StringRef> overrideKeys();

/// Applies one "KEY=VALUE" to \p F; every fact it sets gets \p Src. Errors
/// (unknown key with "did you mean", a bad value naming the key) are a
/// DiagnosticError located at Src.By (e.g. "--set torch.cuda=x").
llvm::Error applyOverride(Facts &F, llvm::StringRef KeyEqValue, Source Src);

/// Applies each of \p Sets as `--set S` (Source::overridden("--set " + S)),
/// in order; reports every bad one in one DiagnosticError.
llvm::Error applyOverrides(Facts &F, llvm::ArrayRef<std::string> Sets);

/// The facts file named by $CUDADEPS_FACTS, or std::nullopt when it is unset
/// or empty. Sources read "declared in FILE:LINE via CUDADEPS_FACTS".
llvm::Expected<std::optional<Facts>> loadFactsFromEnv();

/// Reads the facts file \p Path that the environment variable \p Variable
/// named (for callers with their own environment access): sources read
/// "declared in FILE:LINE via VARIABLE", and an error ends with a note
/// naming the variable.
llvm::Expected<Facts> readFactsFileNamedBy(llvm::StringRef Path,
                                           llvm::StringRef Variable);

/// --facts FILE (when \p FactsOption is not empty), else $CUDADEPS_FACTS,
/// else std::nullopt: the caller probes.
llvm::Expected<std::optional<Facts>>
loadDeclaredFacts(llvm::StringRef FactsOption);

} // namespace cudadeps

#endif
