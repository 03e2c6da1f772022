//===- ManifestLoader.h - read and validate schema-1 manifests ------------===//
//
// Parses a manifest with TOML++ and validates it against schema 1 (DESIGN.md
// section 4). Validation reports every error in the file at once, as a
// DiagnosticError whose diagnostics carry file:line:col, the source line and,
// for misspelt keys, a "did you mean" hint. Hostile input (binary, NUL
// bytes, huge values, deep nesting) is an error, never a crash.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_MANIFEST_MANIFESTLOADER_H
#define CUDADEPS_CORE_MANIFEST_MANIFESTLOADER_H

#include "core/manifest/Manifest.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace cudadeps {

/// Manifests larger than this are rejected before parsing.
inline constexpr size_t MaxManifestBytes = 1 << 20;
/// Any single string value longer than this is rejected.
inline constexpr size_t MaxManifestValueBytes = 4096;

/// Reads and validates the manifest at \p Path. Each error names
/// file:line:col; all of a file's errors come in one DiagnosticError, sorted
/// by position. Warnings (a requirement key that looks like a misspelt fact
/// but reads as a package name) are returned in Manifest::Warnings. A file
/// that cannot be read is a plain StringError.
llvm::Expected<Manifest> loadManifest(llvm::StringRef Path);

/// Validates \p Text as if read from \p FileName (used in diagnostics and to
/// resolve a project's relative `registry` directories).
llvm::Expected<Manifest> parseManifest(llvm::StringRef Text,
                                       llvm::StringRef FileName);

/// Cross-field checks that are not parse errors (a DiagnosticError when
/// something is wrong):
///  - a compiling build kind (torch-extension, cmake, command) has a `git`;
///  - build = "command" has a [build] command, other kinds have none;
///  - a release with [release.prebuilt] has a [prebuilt] url to name it;
///  - a package has at least one [[release]];
///  - tag templates use only {version}.
/// Warnings of the load (Manifest::Warnings) are not repeated here.
llvm::Error lintManifest(const Manifest &M);

} // namespace cudadeps

#endif
