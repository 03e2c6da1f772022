//===- FactsFile.h - facts as TOML (facts files) and JSON -----------------===//
//
// The facts file of DESIGN.md section 3 (`cudadeps probe --format toml`
// writes it, `--facts FILE` reads it) and the JSON form (`--format json`,
// external probe plugins).
//
// Reading validates everything and reports all errors at once as a
// DiagnosticError (file:line:col, the line, a caret, "did you mean"). Every
// fact read from a file gets Source::declared(File, "File:LINE").
//
// An empty facts file is valid: it describes a bare machine (no driver, no
// GPU, no toolkit, no compiler, no Python). A file that is not UTF-8 text
// (NUL bytes, binary) is an error at 1:1.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_FACTS_FACTSFILE_H
#define CUDADEPS_CORE_FACTS_FACTSFILE_H

#include "core/facts/Facts.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <string>

namespace cudadeps {

/// Parses the text of a facts file. \p FileName is used in diagnostics and
/// in the declared sources.
llvm::Expected<Facts> parseFactsToml(llvm::StringRef Text,
                                     llvm::StringRef FileName);

/// A facts file describes one machine: a few kilobytes.
inline constexpr uint64_t MaxFactsFileSize = 4u << 20;

/// Reads and parses the facts file at \p Path (files over MaxFactsFileSize
/// are refused).
llvm::Expected<Facts> readFactsFile(llvm::StringRef Path);

/// Writes \p F as a facts file; each fact is preceded by a comment naming
/// its source ("# probed by nvcc from /usr/local/cuda/bin/nvcc --version").
/// parseFactsToml() of the result gives equal values (the sources are then
/// "declared").
std::string writeFactsToml(const Facts &F);

/// The JSON form: the TOML schema with "gpu", "nvcc", "compiler" as arrays,
/// and a "source" object {"kind": "probed|declared|overridden", "by": ...,
/// "from": ...} in every entry; the driver has "source" for its version and
/// "cuda_source" for its cuda; packages are {"NAME": {"version": ...,
/// "source": ...}}. factsFromJson(factsToJson(F)) == F, sources included.
llvm::json::Value factsToJson(const Facts &F);
llvm::json::Value sourceToJson(const Source &S);

/// Reads the JSON form. Entries without "source" get \p Default (external
/// probe plugins hand over facts without sources); packages may also be
/// written "NAME": "VERSION". Errors are a DiagnosticError for \p Origin
/// whose messages name the JSON path ("gpu[0].compute_capability: ...").
llvm::Expected<Facts> factsFromJson(const llvm::json::Value &V,
                                    llvm::StringRef Origin,
                                    const Source &Default);
/// As above with Default = Source::declared(Origin).
llvm::Expected<Facts> factsFromJson(const llvm::json::Value &V,
                                    llvm::StringRef Origin);
/// Parses JSON text first; a JSON syntax error is reported at its line and
/// column in \p Origin.
llvm::Expected<Facts> factsFromJsonText(llvm::StringRef Text,
                                        llvm::StringRef Origin,
                                        const Source &Default);

} // namespace cudadeps

#endif
