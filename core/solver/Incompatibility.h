//===- Incompatibility.h - a set of terms that cannot all be true ---------===//
//
// An incompatibility is a set of terms, at most one per package, that must
// not all hold at once, together with why: it is either external (a fact the
// solver was given: the root, a dependency, a package with no matching
// versions, an unavailable version, a custom fact with its own text) or
// derived by conflict resolution from two earlier incompatibilities.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_SOLVER_INCOMPATIBILITY_H
#define CUDADEPS_CORE_SOLVER_INCOMPATIBILITY_H

#include "core/solver/Term.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace cudadeps::solver {

/// Why an incompatibility holds.
enum class CauseKind {
  Root,        // {not root}: the root package must be selected
  Dependency,  // {depender S, not dependee T}: "depender S depends on dependee T"
  NoVersions,  // {foo S}: no version of foo matches S
  Unavailable, // {foo S}: versions of foo in S cannot be used (Text: reason)
  Custom,      // any terms: an external fact (Text: its wording)
  Derived      // derived from Cause1 (the conflict) and Cause2 (the other)
};

/// Index of an incompatibility in the solver's store.
using IncompId = uint32_t;

template <class P, class VS> struct Incompatibility {
  using TermT = Term<VS>;
  using Entry = std::pair<P, TermT>;

  std::vector<Entry> Terms;
  CauseKind Kind = CauseKind::Custom;
  /// Derived only: the incompatibility that was in conflict, and the cause of
  /// its most recent satisfier.
  IncompId Cause1 = 0;
  IncompId Cause2 = 0;
  /// Unavailable: the reason; Custom: the text that explains the fact.
  std::string Text;

  const TermT *get(const P &Package) const {
    for (const Entry &E : Terms)
      if (E.first == Package)
        return &E.second;
    return nullptr;
  }

  bool isExternal() const { return Kind != CauseKind::Derived; }

  /// Whether this incompatibility says that no solution exists: no terms at
  /// all, or a single term about the root package.
  bool isFailure(const P &Root) const {
    return Terms.empty() || (Terms.size() == 1 && Terms.front().first == Root);
  }

  /// Builds an incompatibility from terms that may repeat packages: terms
  /// for the same package are intersected, and positive root terms are
  /// dropped from derived incompatibilities (the root always holds), as in
  /// dart-lang/pub.
  static Incompatibility make(std::vector<Entry> Raw, CauseKind Kind,
                              const P &Root) {
    Incompatibility I;
    I.Kind = Kind;
    if (Raw.size() != 1 && Kind == CauseKind::Derived) {
      std::vector<Entry> Kept;
      bool HasRoot = false;
      for (const Entry &E : Raw)
        if (E.second.isPositive() && E.first == Root)
          HasRoot = true;
      if (HasRoot) {
        for (Entry &E : Raw)
          if (!(E.second.isPositive() && E.first == Root))
            Kept.push_back(std::move(E));
        Raw = std::move(Kept);
      }
    }
    for (Entry &E : Raw) {
      bool Merged = false;
      for (Entry &Existing : I.Terms) {
        if (Existing.first == E.first) {
          Existing.second = Existing.second.intersect(E.second);
          Merged = true;
          break;
        }
      }
      if (!Merged)
        I.Terms.push_back(std::move(E));
    }
    return I;
  }
};

} // namespace cudadeps::solver

#endif
