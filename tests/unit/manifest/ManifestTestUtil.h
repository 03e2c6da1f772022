//===- ManifestTestUtil.h - helpers shared by the manifest tests ----------===//
#ifndef CUDADEPS_TESTS_UNIT_MANIFEST_MANIFESTTESTUTIL_H
#define CUDADEPS_TESTS_UNIT_MANIFEST_MANIFESTTESTUTIL_H

#include "core/manifest/ManifestLoader.h"
#include "core/support/Diagnostic.h"

#include "llvm/Support/Error.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace cudadeps::test {

/// The diagnostics of a failed load; a non-diagnostic error becomes one
/// diagnostic with no location. Fails the test when loading succeeded.
inline std::vector<Diagnostic> diagnosticsOf(llvm::Expected<Manifest> M) {
  std::vector<Diagnostic> Out;
  if (M) {
    ADD_FAILURE() << "expected the manifest to be rejected";
    return Out;
  }
  llvm::handleAllErrors(
      M.takeError(),
      [&](const DiagnosticError &E) {
        Out.insert(Out.end(), E.diagnostics().begin(), E.diagnostics().end());
      },
      [&](const llvm::ErrorInfoBase &E) {
        Diagnostic D;
        D.Message = E.message();
        Out.push_back(D);
      });
  return Out;
}

/// Errors of \p Text parsed as "m.toml".
inline std::vector<Diagnostic> errorsIn(llvm::StringRef Text) {
  return diagnosticsOf(parseManifest(Text, "m.toml"));
}

/// "LINE:COL: message" of a diagnostic, for compact assertions.
inline std::string where(const Diagnostic &D) {
  return std::to_string(D.Loc.Line) + ":" + std::to_string(D.Loc.Column) +
         ": " + D.Message;
}

/// Parses \p Text, failing the test with the rendered errors if it does not
/// load.
inline Manifest parseOk(llvm::StringRef Text) {
  llvm::Expected<Manifest> M = parseManifest(Text, "m.toml");
  if (!M) {
    ADD_FAILURE() << llvm::toString(M.takeError());
    return Manifest();
  }
  return std::move(*M);
}

} // namespace cudadeps::test

#endif
