//===- NamePattern.h - a file-name regular expression with a cheap pre-check
//===//
//
// Probes match directory entries against extended regular expressions
// ("^(g\+\+|clang\+\+)(-[0-9]+(\.[0-9]+)*)?$" over every name of every $PATH
// directory: thousands of names in /usr/bin). llvm::Regex costs microseconds
// per name, so a pattern anchored at the start is first reduced to the
// literal prefixes a matching name must begin with ("g++", "clang++"), and
// only names with one of them are given to the regular expression; each
// alternative of a pattern may instead (or also) be anchored at the end by
// a literal suffix ("\.(dist|egg)-info$|^(torch|nvidia)$": "-info", or
// "torch"/"nvidia" at the start). The literals are a necessary condition,
// never a sufficient one: what matches is exactly what the regular
// expression matches.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_PLUGIN_NAMEPATTERN_H
#define CUDADEPS_CORE_PLUGIN_NAMEPATTERN_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Regex.h"

#include <optional>
#include <string>
#include <vector>

namespace cudadeps {

/// The literal prefixes one of which every string that \p Pattern (an
/// extended regular expression) matches must start with; nullopt when the
/// pattern is not anchored at the start or its start is not literal enough
/// to tell.
std::optional<std::vector<std::string>>
requiredPrefixes(llvm::StringRef Pattern);

/// The literal text every string that \p Pattern matches must end with: the
/// plain characters before a final '$' ("-info" for "\\.(dist|egg)-info$");
/// "" when the pattern is not anchored at the end or its end is not literal.
std::string requiredSuffix(llvm::StringRef Pattern);

class NamePattern {
public:
  explicit NamePattern(llvm::StringRef Pattern);
  bool isValid() const { return Re.isValid(); }
  /// Whether \p Name matches the regular expression.
  bool match(llvm::StringRef Name) const;

private:
  /// What one alternative of the pattern needs of a name: one of the
  /// prefixes (when known) and the suffix ("" = any).
  struct Literals {
    std::optional<std::vector<std::string>> Prefixes;
    std::string Suffix;
  };
  llvm::Regex Re;
  /// One entry per top-level alternative; nullopt when one of them needs
  /// nothing certain (then every name goes to the regular expression).
  std::optional<std::vector<Literals>> Checks;
};

} // namespace cudadeps

#endif
