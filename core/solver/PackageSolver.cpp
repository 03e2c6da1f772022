//===- PackageSolver.cpp - the solver instantiated for cudadeps -----------===//

#include "core/solver/PackageSolver.h"

template class cudadeps::solver::Solver<std::string, cudadeps::Version,
                                        cudadeps::VersionSet>;
template class cudadeps::solver::Reporter<std::string, cudadeps::VersionSet>;

namespace cudadeps {

PackageSolveResult solvePackages(PackageProvider &Provider,
                                 const std::string &Root,
                                 const Version &RootVersion) {
  return solver::Solver<std::string, Version, VersionSet>(Provider, Root,
                                                          RootVersion)
      .solve();
}

PackageReportStyle pep440ReportStyle() {
  PackageReportStyle Style;
  Style.Package = [](const std::string &Name) { return Name; };
  Style.Set = [](const VersionSet &Set) -> std::string {
    if (Set.isAny())
      return "any";
    if (Set.isEmpty())
      return "(no versions)";
    return Set.displayStr();
  };
  return Style;
}

std::string explainFailure(const PackageDerivation &Tree) {
  return explainFailure(Tree, pep440ReportStyle());
}

std::string explainFailure(const PackageDerivation &Tree,
                           const PackageReportStyle &Style) {
  return solver::report(Tree, Style);
}

} // namespace cudadeps
