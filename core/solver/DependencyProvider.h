//===- DependencyProvider.h - what the solver asks about packages ---------===//
//
// The solver knows nothing about registries, manifests or machines: it asks a
// DependencyProvider which versions of a package exist (in the order they
// should be tried), what a version depends on (or why it cannot be used), and
// which external facts hold about a package. Facts are incompatibilities with
// their own wording, e.g. {nvcc any} "no nvcc was found on this machine" or
// {nvcc 11.8, not gcc <=11} "nvcc 11.8 supports gcc <= 11".
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_SOLVER_DEPENDENCYPROVIDER_H
#define CUDADEPS_CORE_SOLVER_DEPENDENCYPROVIDER_H

#include "core/solver/Term.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace cudadeps::solver {

/// What one version of a package needs.
template <class P, class VS> struct Dependencies {
  /// False when the version cannot be used at all; Reason says why.
  bool Available = true;
  /// Each dependency once, in the order they should be reported.
  std::vector<std::pair<P, VS>> On;
  std::string Reason;

  static Dependencies available(std::vector<std::pair<P, VS>> On) {
    Dependencies D;
    D.On = std::move(On);
    return D;
  }
  static Dependencies unavailable(std::string Reason) {
    Dependencies D;
    D.Available = false;
    D.Reason = std::move(Reason);
    return D;
  }
};

/// The same, each dependee named by the provider's number for its name
/// (DependencyProvider::nameOf()): the solver reads tens of thousands of
/// dependencies on a large registry, and a number it has met is one array
/// read where a name is hashed and compared again.
template <class VS> struct NumberedDependencies {
  bool Available = true;
  std::vector<std::pair<uint32_t, VS>> On;
  /// More dependencies, after On's, where the provider numbers its ranges
  /// too (DependencyProvider::rangeOf()): the dependee's number and the
  /// range's. A large registry's tens of thousands of dependencies have a
  /// few hundred distinct ranges: a range number the solver has met is one
  /// array read, where a set was copied, handed over and looked up.
  std::vector<std::pair<uint32_t, uint32_t>> ByNumber;
  std::string Reason;
};

/// An external fact: these terms cannot all hold, because of Text.
template <class P, class VS> struct Fact {
  std::vector<std::pair<P, Term<VS>>> Terms;
  std::string Text;
};

template <class P, class V, class VS> class DependencyProvider {
public:
  virtual ~DependencyProvider() = default;

  /// Every version of Package, most preferred first: the solver decides on
  /// the first one that the current constraints allow, so the provider ranks
  /// candidates (newest first, strategies in order, ...). Empty when the
  /// package does not exist. Not asked for the root package.
  virtual std::vector<V> versions(const P &Package) = 0;

  /// The dependencies of one version, or why it cannot be used.
  virtual Dependencies<P, VS> dependencies(const P &Package,
                                           const V &Version) = 0;

  /// dependencies(), the dependees by number (nameOf()), where the provider
  /// numbers its names: Out is filled (from empty) and true returned. False
  /// (the default, Out untouched) where it does not: the solver then asks
  /// dependencies().
  virtual bool numberedDependencies(const P &Package, const V &Version,
                                    NumberedDependencies<VS> &Out) {
    return false;
  }
  /// The name numberedDependencies() numbered Id; asked once per number.
  virtual P nameOf(uint32_t Id) const { return P(); }
  /// The range numberedDependencies() numbered Number (ByNumber); asked
  /// once per number. A number stands for the same range for as long as
  /// the provider lives.
  virtual VS rangeOf(uint32_t Number) const { return VS(); }

  /// External facts about Package, asked once, the first time the solver is
  /// about to pick a version of it (for the root package: before solving).
  virtual std::vector<Fact<P, VS>> facts(const P &Package) { return {}; }
};

} // namespace cudadeps::solver

#endif
