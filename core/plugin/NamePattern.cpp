//===- NamePattern.cpp - a file-name regular expression with a cheap pre-check
//===//

#include "core/plugin/NamePattern.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

using namespace llvm;

namespace cudadeps {

/// Characters with a meaning of their own in an extended regular expression.
static bool isSpecial(char C) {
  return StringRef(".[]()*+?{}|^$\\").contains(C);
}

/// Whether a quantifier at P[I] lets the atom before it be absent ('{' is
/// taken as one whatever its bounds: that only makes the prefix shorter).
static bool optionalQuantifier(StringRef P, size_t I) {
  return I < P.size() && (P[I] == '*' || P[I] == '?' || P[I] == '{');
}

/// The index of the ']' that closes the bracket expression opening at P[I]
/// (a ']' first in it, or first after '^', is a member); npos when none.
static size_t bracketEnd(StringRef P, size_t I) {
  size_t J = I + 1;
  if (J < P.size() && P[J] == '^')
    ++J;
  if (J < P.size() && P[J] == ']')
    ++J;
  return P.find(']', J);
}

/// Walks P from \p I to the end of the innermost construct: with \p Close,
/// to the ')' matching the group opened just before I; otherwise to the
/// end. Calls \p OnBar(Index) for each '|' at the walk's own level.
/// Returns the stopping index, npos when a bracket or group is unbalanced.
template <typename Fn>
static size_t walk(StringRef P, size_t I, bool Close, Fn OnBar) {
  int Depth = 0;
  for (; I < P.size(); ++I) {
    char C = P[I];
    if (C == '\\') {
      ++I;
    } else if (C == '[') {
      I = bracketEnd(P, I);
      if (I == StringRef::npos)
        return I;
    } else if (C == '(') {
      ++Depth;
    } else if (C == ')') {
      if (Depth == 0)
        return Close ? I : StringRef::npos;
      --Depth;
    } else if (C == '|' && Depth == 0) {
      OnBar(I);
    }
  }
  return Close ? StringRef::npos : I;
}

/// The alternatives of \p P ('|' outside groups and brackets); nullopt when
/// P is unbalanced.
static std::optional<SmallVector<StringRef, 4>> alternatives(StringRef P) {
  SmallVector<StringRef, 4> Out;
  size_t Start = 0;
  size_t End = walk(P, 0, /*Close=*/false, [&](size_t Bar) {
    Out.push_back(P.slice(Start, Bar));
    Start = Bar + 1;
  });
  if (End == StringRef::npos)
    return std::nullopt;
  Out.push_back(P.slice(Start, End));
  return Out;
}

/// Appends to \p Lit the characters P must start with, up to the first
/// thing that is not certainly a literal; returns where it stopped.
static size_t literalRun(StringRef P, std::string &Lit) {
  size_t I = 0;
  while (I < P.size()) {
    char C = P[I];
    size_t Width = 1;
    if (C == '\\') {
      // An escaped punctuation character is itself; anything else (a back
      // reference, a class escape) is not known to be literal.
      if (I + 1 >= P.size() || !isSpecial(P[I + 1]))
        return I;
      C = P[I + 1];
      Width = 2;
    } else if (isSpecial(C)) {
      return I;
    }
    if (optionalQuantifier(P, I + Width))
      return I;
    Lit += C;
    I += Width;
    if (I < P.size() && P[I] == '+') // one or more: the first is certain
      return I;
  }
  return I;
}

std::optional<std::vector<std::string>> requiredPrefixes(StringRef P) {
  if (!P.consume_front("^"))
    return std::nullopt;
  // "^a|b": the second alternative is not anchored.
  std::optional<SmallVector<StringRef, 4>> Top = alternatives(P);
  if (!Top || Top->size() != 1)
    return std::nullopt;
  std::string Lit;
  size_t I = literalRun(P, Lit);
  std::vector<std::string> Out{Lit};
  if (I < P.size() && P[I] == '(') {
    // A group right after the literal start, present at least once: each
    // of its alternatives adds its own literal start.
    size_t End = walk(P, I + 1, /*Close=*/true, [](size_t) {});
    std::optional<SmallVector<StringRef, 4>> Alts =
        End == StringRef::npos ? std::nullopt
                               : alternatives(P.slice(I + 1, End));
    if (Alts && !optionalQuantifier(P, End + 1)) {
      Out.clear();
      for (StringRef Alt : *Alts) {
        std::string A = Lit;
        literalRun(Alt, A);
        Out.push_back(std::move(A));
      }
    }
  }
  if (llvm::any_of(Out, [](const std::string &S) { return S.empty(); }))
    return std::nullopt;
  return Out;
}

std::string requiredSuffix(StringRef P) {
  // Anchored at the end by a '$' that is not escaped (a backslash before it
  // is taken as escaping it: no suffix then).
  if (P.size() < 2 || P.back() != '$' || P[P.size() - 2] == '\\')
    return "";
  // Back from the '$' over plain characters: each is certainly the next
  // character of a match (it is neither quantified, which would make the
  // character after it special, nor escaped, nor inside a group or bracket,
  // which end in a special character).
  size_t I = P.size() - 1;
  while (I > 0 && !isSpecial(P[I - 1]) &&
         (I < 2 || P[I - 2] != '\\'))
    --I;
  return P.slice(I, P.size() - 1).str();
}

NamePattern::NamePattern(StringRef Pattern) : Re(Pattern) {
  // A name that matches matches one of the alternatives, so it meets that
  // alternative's literal start or end: when every alternative has one,
  // a name that meets none does not match.
  std::optional<SmallVector<StringRef, 4>> Alts = alternatives(Pattern);
  if (!Alts)
    return;
  std::vector<Literals> All;
  for (StringRef Alt : *Alts) {
    Literals L{requiredPrefixes(Alt), requiredSuffix(Alt)};
    if (!L.Prefixes && L.Suffix.empty())
      return;
    All.push_back(std::move(L));
  }
  Checks = std::move(All);
}

bool NamePattern::match(StringRef Name) const {
  auto Meets = [&](const Literals &L) {
    return (!L.Prefixes ||
            llvm::any_of(*L.Prefixes,
                         [&](const std::string &P) {
                           return Name.startswith(P);
                         })) &&
           Name.endswith(L.Suffix);
  };
  if (Checks && llvm::none_of(*Checks, Meets))
    return false;
  return Re.match(Name);
}

} // namespace cudadeps
