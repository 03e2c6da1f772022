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

/// The JSON document of DESIGN.md section 6.
llvm::json::Value renderJson(const Resolution &R, const Facts &F);

} // namespace cudadeps::cli

#endif
