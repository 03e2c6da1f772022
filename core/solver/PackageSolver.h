//===- PackageSolver.h - the solver instantiated for cudadeps -------------===//
//
// cudadeps solves over packages named by strings, PEP 440 versions and
// VersionSets. This header names that instantiation (compiled once, in
// PackageSolver.cpp) and the PEP 440 wording of explanations.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_SOLVER_PACKAGESOLVER_H
#define CUDADEPS_CORE_SOLVER_PACKAGESOLVER_H

#include "core/solver/DependencyProvider.h"
#include "core/solver/DerivationTree.h"
#include "core/solver/Reporter.h"
#include "core/solver/Solver.h"
#include "core/version/Version.h"
#include "core/version/VersionSet.h"

#include <string>

namespace cudadeps {

using PackageTerm = solver::Term<VersionSet>;
using PackageDependencies = solver::Dependencies<std::string, VersionSet>;
using SolverFact = solver::Fact<std::string, VersionSet>;
using PackageProvider =
    solver::DependencyProvider<std::string, Version, VersionSet>;
using PackageSolveResult = solver::SolveResult<std::string, Version, VersionSet>;
/// A solver kept after its solve, for query().
using PackageSolver = solver::Solver<std::string, Version, VersionSet>;
using PackageDerivation = solver::DerivationTree<std::string, VersionSet>;
using PackageCause = solver::CauseView<std::string, VersionSet>;
using PackageReportStyle = solver::ReportStyle<std::string, VersionSet>;

/// Solves the dependencies of Root (at RootVersion) against Provider.
PackageSolveResult solvePackages(PackageProvider &Provider,
                                 const std::string &Root,
                                 const Version &RootVersion);

/// Wording with PEP 440 specifiers: "torch >=2.4,<3", "nvcc ==12.8",
/// "foo any"; Custom facts read as their text.
PackageReportStyle pep440ReportStyle();

/// The explanation of a failed solve; Style defaults to pep440ReportStyle().
std::string explainFailure(const PackageDerivation &Tree);
std::string explainFailure(const PackageDerivation &Tree,
                           const PackageReportStyle &Style);

} // namespace cudadeps

extern template class cudadeps::solver::Solver<std::string, cudadeps::Version,
                                               cudadeps::VersionSet>;
extern template class cudadeps::solver::Reporter<std::string,
                                                 cudadeps::VersionSet>;

#endif
