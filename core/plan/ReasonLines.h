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

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cudadeps {

/// A list of reason lines. A line said already, or that begins a line said
/// already followed by a colon ("torch is not installed ..." next to "torch
/// is not installed ...: X is a torch extension"), is not said again; "X
/// needs torch >=2.5" and "X needs torch >=2.7" (two releases) become one
/// line, "X needs torch >=2.5 or >=2.7 (by release)".
class ReasonLines {
public:
  /// How a head is hashed for FirstByHead (never to ~0 or ~0 - 1):
  /// xxHash64 shifted right by one. Tests give one that collides.
  using HeadHashFn = uint64_t (*)(llvm::StringRef Head);
  static uint64_t headHash(llvm::StringRef Head);

  ReasonLines() = default;
  explicit ReasonLines(HeadHashFn Hash) : HashHead(Hash) {}

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
  static constexpr llvm::StringRef ByRelease = " (by release)";
  static constexpr std::string_view Or = " or ";
  /// Where an alternative of a line's sets begins and ends in the line.
  using Span = std::pair<uint32_t, uint32_t>;
  struct KnownAlternatives {
    size_t HeadSize = ~size_t(0); // the head they were read after
    std::vector<Span> Spans;
  };

  /// Pushes Line; with RegisterHead, FirstByHead learns its head.
  void push(std::string Line, bool RegisterHead = true);
  static std::string concat(llvm::StringRef Head, llvm::StringRef Set);
  /// The first line that begins with Head, looked for line by line.
  std::optional<size_t> firstBeginning(llvm::StringRef Head) const;
  /// Sets' alternatives, split at each " or ", appended to Out.
  static void splitAlternatives(llvm::StringRef Sets,
                                llvm::SmallVectorImpl<llvm::StringRef> &Out);
  /// The alternatives of line At's sets, the head HeadSize bytes: read
  /// from the line where addNeed() first merges into it (or after another
  /// head), kept up to date by its merges after.
  std::vector<Span> &knownAlternatives(size_t At, size_t HeadSize);
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
  /// Per head ("A needs B ", A and B without a space), by its hash
  /// (headHash()), the first line that begins with it; a head whose hash
  /// another took first is looked for line by line.
  llvm::DenseMap<uint64_t, uint32_t> FirstByHead;
  HeadHashFn HashHead = headHash;
  /// Per line, those addNeed() has merged into (grown to their index).
  std::vector<KnownAlternatives> Merging;
};

} // namespace cudadeps

#endif
