//===- CompilerProbe.h - the "compiler" probe: host C++ compilers ---------===//
//
// Lists the host C++ compilers nvcc could use as -ccbin, de-duplicated by real
// path (the first spelling is kept), in this order:
//  1. the one nvcc uses by default: $NVCC_CCBIN (a program, a name on PATH or
//     a directory holding g++/c++/clang++), else g++ on PATH, else c++ --
//     marked CompilerFacts::NvccDefault;
//  2. $CXX and $CUDAHOSTCXX (first word; a leading ccache/sccache is skipped);
//  3. every g++, g++-N, clang++, clang++-N in the directories of $PATH.
// Family from `--version` ("clang version" -> clang, the FSF notice -> gcc),
// version from `-dumpfullversion` (gcc; -dumpversion before gcc 7) or the
// "clang version X.Y.Z" text. Each command has ProbeContext::CommandTimeout.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_PLUGINS_COMPILER_COMPILERPROBE_H
#define CUDADEPS_PLUGINS_COMPILER_COMPILERPROBE_H

#include "core/plugin/Probe.h"

#include "llvm/ADT/StringRef.h"

#include <memory>
#include <optional>
#include <string>

namespace cudadeps {

std::unique_ptr<Probe> createCompilerProbe();

namespace compiler {

/// "gcc", "clang", or "" for anything else, from `--version` output.
std::string familyFromVersionOutput(llvm::StringRef Out);
/// "14.0.6" from "Debian clang version 14.0.6"; nullopt when absent.
std::optional<std::string> clangVersionFromOutput(llvm::StringRef Out);
/// g++, g++-13, clang++, clang++-18 (the names looked for on PATH).
bool isCompilerName(llvm::StringRef Name);

} // namespace compiler
} // namespace cudadeps

#endif
