//===- ToolkitEvidence.h - what a real toolkit says about itself -*- C++
//-*-===//
//
// The files and tool outputs that decide a toolkits.toml row, read from a
// toolkit on this machine (RealToolkitTest) or from the verbatim copies of
// NVIDIA's wheels under tests/fixtures/toolkit-builds (WheelBuildsTest), and
// one check that the knowledge base's row for that nvcc agrees with all of
// them. The parsers for nvcc's own output are the nvcc probe's
// (plugins/nvcc/NvccProbe.h), so the tests check what cudadeps reads.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_TESTS_UNIT_KNOWLEDGE_TOOLKITEVIDENCE_H
#define CUDADEPS_TESTS_UNIT_KNOWLEDGE_TOOLKITEVIDENCE_H

#include "core/manifest/KnowledgeBase.h"
#include "core/version/Version.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace cudadeps {

struct ToolkitEvidence {
  std::string Origin;                    // a directory or a fixture file
  std::optional<Version> Nvcc;           // from `nvcc/ptxas --version`
  std::optional<std::string> HostConfig; // crt/host_config.h (or its part)
  /// The sm_XX lines of `nvcc --list-gpu-code`, when nvcc was there.
  std::optional<std::vector<std::string>> GpuCode;
  /// The sm_XX/sm_XXa/sm_XXf values `ptxas --help` allows for --gpu-name.
  std::optional<std::vector<std::string>> GpuNames;
};

/// The sm_* values of the --gpu-name option in `ptxas --help` output
/// ("Allowed values for this option: 'compute_100', ..., 'sm_90a'."), in
/// the order listed; compute_* and lto_* names are left out.
std::vector<std::string> parsePtxasGpuNames(llvm::StringRef Help);

/// The nvcc version in `nvcc --version` or `ptxas --version` output.
std::optional<Version> parseToolVersion(llvm::StringRef Out);

/// Reads a tests/fixtures/toolkit-builds/*.txt file: "version: X" and
/// sections opened by "--- host_config.h:", "--- nvcc --list-gpu-code:",
/// "--- ptxas --help:" (others, such as "--- ptxas --version:", are kept as
/// provenance only). A file without a version is an error.
llvm::Expected<ToolkitEvidence> readEvidenceFile(llvm::StringRef Path);

/// Records a test failure for every value of KB's row for E.Nvcc that E
/// contradicts: max_gcc and max_clang against host_config.h, archs against
/// --list-gpu-code and the plain --gpu-name values, arch_specific and
/// family against the 'a' and 'f' values; and every arch E lists must be in
/// KB.nvccRangeForArch. Fails when KB has no row for E.Nvcc.
void expectRowMatches(const KnowledgeBase &KB, const ToolkitEvidence &E);

} // namespace cudadeps

#endif
