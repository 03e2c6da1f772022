//===- ReasonLines.h - the lines of a package's reasons, each said once ---===//
//
// `resolve` gives each package it could not have as wanted a list of
// reasons, gathered from the leaves of a proof that can hold hundreds of
// them (a dead version's proof runs through every version it rests on).
// ReasonLines keeps that list as it grows and answers its questions (said
// already? said as the beginning of a longer line? which line says what X
// needs of Y?) by lookups, not by walking the lines so far.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_PLAN_REASONLINES_H
#define CUDADEPS_CORE_PLAN_REASONLINES_H

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace cudadeps {

/// A list of reason lines. A line said already, or that begins a line said
/// already followed by a colon ("torch is not installed ..." next to "torch
/// is not installed ...: X is a torch extension"), is not said again; "X
/// needs torch >=2.5" and "X needs torch >=2.7" (two releases) become one
/// line, "X needs torch >=2.5 or >=2.7 (by release)".
class ReasonLines {
public:
  /// Adds Line unless it is empty, said already, or begins a line said
  /// already followed by a colon.
  void add(const std::string &Line);

  /// "From needs To Set", or Set added to the first line that begins
  /// "From needs To " (each alternative once: a set that reads as several,
  /// "X (source build) or Y (prebuilt)", adds those not said yet; " or "
  /// between them, and " (by release)" once there are several).
  void addNeed(const std::string &From, const std::string &To,
               const std::string &Set);

  /// The lines, in the order first said.
  const std::vector<std::string> &lines() const { return Out; }
  std::vector<std::string> take() { return std::move(Out); }

private:
  void push(std::string Line);
  /// Counts Line in Lines and ColonPrefixes; forget() takes it out.
  void registerText(llvm::StringRef Line);
  void forget(llvm::StringRef Line);
  /// Brings Lines and ColonPrefixes up to date with Out: only add() asks
  /// them, and most lists are what addNeed() makes, merging lines several
  /// times over, with no add() after.
  void registerPending();

  std::vector<std::string> Out;
  /// How many lines are each text, and how many begin with each text and
  /// a colon after it: the lines of Out marked Registered, and the texts in
  /// Stale (what a merge replaced since) in place of the lines they were.
  llvm::StringMap<unsigned> Lines, ColonPrefixes;
  std::vector<bool> Registered;
  std::vector<size_t> Pending;
  std::vector<std::string> Stale;
  /// Per head ("A needs B ", A and B without a space), the first line that
  /// begins with it.
  llvm::StringMap<size_t> FirstByHead;
};

} // namespace cudadeps

#endif
