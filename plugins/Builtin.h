//===- Builtin.h - the one explicit list of built-in probes ---------------===//
//
// Built-in probes are registered here and nowhere else: no static
// constructors, no registration side effects. To add a probe, include its
// header in Builtin.cpp and add its factory to the list.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_PLUGINS_BUILTIN_H
#define CUDADEPS_PLUGINS_BUILTIN_H

#include "core/plugin/MachineFacts.h"

#include "llvm/ADT/ArrayRef.h"

namespace cudadeps {

/// The factories of the built-in probes, in the order their answers are
/// merged (a later probe's facts win where two answer the same thing).
llvm::ArrayRef<ProbeFactory> builtinProbes();

} // namespace cudadeps

#endif
