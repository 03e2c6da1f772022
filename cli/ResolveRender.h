//===- ResolveRender.h - a Resolution as text or JSON ----------------------===//
#ifndef CUDADEPS_CLI_RESOLVERENDER_H
#define CUDADEPS_CLI_RESOLVERENDER_H

#include "core/facts/Facts.h"
#include "core/plan/Resolution.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace cudadeps::cli {

/// uv-style text: one decision line per package, "because" lines for
/// anything not built from source, hint: and fallback: lines.
void renderText(const Resolution &R, llvm::raw_ostream &OS, bool Color);

/// The JSON document of DESIGN.md section 6 without its "packages", which
/// printJson() writes from \p R as it prints (a large resolve's packages
/// are most of the document: building and sorting an Object for each cost
/// as much again as writing them).
llvm::json::Value renderJson(const Resolution &R, const Facts &F);

/// Prints \p Doc (renderJson()'s, with whatever a command added) with the
/// packages of \p R, as llvm::json prints a document (indent 2, keys
/// sorted), without a newline after it.
void printJson(llvm::raw_ostream &OS, const llvm::json::Value &Doc,
               const Resolution &R);

} // namespace cudadeps::cli

#endif
