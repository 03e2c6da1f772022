//===- SolverTestSupport.h - an in-memory registry and pub's notation -----===//
//
// Test support for the solver: a registry of packages built in code, a parser
// for dart-lang/pub's constraint notation ("^1.0.0", ">=2.0.0 <3.0.0",
// "1.0.0", "any") and the matching formatter, so that explanations can be
// compared with pub's own texts.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_TESTS_UNIT_SOLVER_SOLVERTESTSUPPORT_H
#define CUDADEPS_TESTS_UNIT_SOLVER_SOLVERTESTSUPPORT_H

#include "core/solver/PackageSolver.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace cudadeps::testing {

inline Version ver(llvm::StringRef Text) {
  return llvm::cantFail(Version::parse(Text));
}

/// The first version that ^V does not allow (pub's nextBreaking).
inline Version nextBreaking(const Version &V) {
  if (V.major() == 0)
    return Version({0, V.minor() + 1, 0});
  return Version({V.major() + 1, 0, 0});
}

/// pub notation: space-separated clauses, intersected.
inline VersionSet constraint(llvm::StringRef Text) {
  VersionSet Out = VersionSet::any();
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  Text.split(Parts, ' ', -1, false);
  for (llvm::StringRef Part : Parts) {
    VersionSet S;
    if (Part == "any")
      S = VersionSet::any();
    else if (Part.consume_front("^"))
      S = VersionSet::between(ver(Part), nextBreaking(ver(Part)));
    else if (Part.consume_front(">="))
      S = VersionSet::atLeast(ver(Part));
    else if (Part.consume_front("<="))
      S = VersionSet::atMost(ver(Part));
    else if (Part.consume_front(">"))
      S = VersionSet::greaterThan(ver(Part));
    else if (Part.consume_front("<"))
      S = VersionSet::lessThan(ver(Part));
    else
      S = VersionSet::exactly(ver(Part));
    Out = Out.intersect(S);
  }
  return Out;
}

inline std::string boundText(const Bound &B) { return B.Value->str(); }

/// pub_semver's wording of a set: "any", "1.0.0", "^1.0.0",
/// ">=2.0.0 <2.9.0", "<1.1.0", unions joined by " or ".
inline std::string pubSetText(const VersionSet &Set) {
  if (Set.isAny())
    return "any";
  if (Set.isEmpty())
    return "<empty>";
  std::string Out;
  for (const Interval &I : Set.intervals()) {
    if (!Out.empty())
      Out += " or ";
    if (I.Lower.Value && I.Upper.Value && I.Lower.Inclusive &&
        I.Upper.Inclusive && *I.Lower.Value == *I.Upper.Value) {
      Out += boundText(I.Lower);
      continue;
    }
    if (I.Lower.Value && I.Lower.Inclusive && I.Upper.Value &&
        !I.Upper.Inclusive && *I.Upper.Value == nextBreaking(*I.Lower.Value)) {
      Out += "^" + boundText(I.Lower);
      continue;
    }
    std::string Part;
    if (I.Lower.Value)
      Part += (I.Lower.Inclusive ? ">=" : ">") + boundText(I.Lower);
    if (I.Upper.Value) {
      if (!Part.empty())
        Part += " ";
      Part += (I.Upper.Inclusive ? "<=" : "<") + boundText(I.Upper);
    }
    Out += Part;
  }
  return Out;
}

inline PackageReportStyle pubStyle() {
  PackageReportStyle Style;
  Style.Package = [](const std::string &Name) { return Name; };
  Style.Set = pubSetText;
  return Style;
}

/// An in-memory registry. Versions are offered newest first unless a
/// package's order is set explicitly.
class Registry : public PackageProvider {
public:
  /// Adds Name at Version with dependencies {name, pub constraint}.
  Registry &
  add(const std::string &Name, llvm::StringRef Version,
      std::vector<std::pair<std::string, std::string>> Deps = {}) {
    std::vector<std::pair<std::string, VersionSet>> On;
    for (auto &[Dep, Text] : Deps)
      On.emplace_back(Dep, constraint(Text));
    Packages[Name].emplace_back(ver(Version),
                                PackageDependencies::available(On));
    return *this;
  }
  Registry &addUnavailable(const std::string &Name, llvm::StringRef Version,
                           std::string Reason) {
    Packages[Name].emplace_back(ver(Version),
                                PackageDependencies::unavailable(Reason));
    return *this;
  }
  Registry &fact(const std::string &Package, SolverFact F) {
    Facts[Package].push_back(std::move(F));
    return *this;
  }

  std::vector<Version> versions(const std::string &Package) override {
    std::vector<Version> Out;
    auto It = Packages.find(Package);
    if (It == Packages.end())
      return Out;
    for (auto &[V, D] : It->second)
      Out.push_back(V);
    std::sort(Out.begin(), Out.end(),
              [](const Version &A, const Version &B) { return B < A; });
    return Out;
  }

  PackageDependencies dependencies(const std::string &Package,
                                   const Version &V) override {
    ++DependencyQueries;
    for (auto &[Candidate, D] : Packages[Package])
      if (Candidate == V)
        return D;
    return PackageDependencies::unavailable("unknown version");
  }

  std::vector<SolverFact> facts(const std::string &Package) override {
    auto It = Facts.find(Package);
    return It == Facts.end() ? std::vector<SolverFact>{} : It->second;
  }

  unsigned DependencyQueries = 0;

private:
  std::map<std::string,
           std::vector<std::pair<Version, PackageDependencies>>>
      Packages;
  std::map<std::string, std::vector<SolverFact>> Facts;
};

/// The solution as "name version" strings, root excluded, sorted by name.
inline std::map<std::string, std::string>
solutionOf(const PackageSolveResult &R, const std::string &Root) {
  std::map<std::string, std::string> Out;
  if (!R.Solution)
    return Out;
  for (auto &[Name, V] : *R.Solution)
    if (Name != Root)
      Out[Name] = V.str();
  return Out;
}

} // namespace cudadeps::testing

#endif
