//===- Printers.h - gtest printers for versions and version sets ----------===//
#ifndef CUDADEPS_TESTS_UNIT_VERSION_PRINTERS_H
#define CUDADEPS_TESTS_UNIT_VERSION_PRINTERS_H

#include "core/version/VersionSet.h"

#include <ostream>

namespace cudadeps {

inline void PrintTo(const Version &V, std::ostream *OS) { *OS << V.str(); }

/// The text and the raw intervals, so that a failure shows what differs
/// even where str() would print two different sets the same way.
inline void PrintTo(const VersionSet &S, std::ostream *OS) {
  *OS << "'" << S.str() << "' {";
  for (const Interval &I : S.intervals()) {
    *OS << (I.Lower.Value ? (I.Lower.Inclusive ? " [" : " (") : " (")
        << (I.Lower.Value ? I.Lower.Value->str() : "-inf") << ", "
        << (I.Upper.Value ? I.Upper.Value->str() : "+inf")
        << (I.Upper.Value ? (I.Upper.Inclusive ? "]" : ")") : ")");
  }
  *OS << " }";
}

} // namespace cudadeps

#endif
