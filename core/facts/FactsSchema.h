//===- FactsSchema.h - value rules shared by the facts readers
//-------------===//
//
// The facts file (TOML), the JSON form and --set overrides accept the same
// values; the checks live here so the three readers agree. Internal to
// core/facts.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_FACTS_FACTSSCHEMA_H
#define CUDADEPS_CORE_FACTS_FACTSSCHEMA_H

#include "core/facts/Facts.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace cudadeps::facts_schema {

/// Top-level tables of a facts file, in the order they are written.
llvm::ArrayRef<llvm::StringRef> tableNames();
/// The keys a table accepts ("driver" -> version, cuda); empty for
/// "packages", whose keys are package names.
llvm::ArrayRef<llvm::StringRef> keysOf(llvm::StringRef Table);
/// Tables written as arrays of tables ([[gpu]], [[nvcc]], [[compiler]]).
bool isArrayTable(llvm::StringRef Table);
/// Keys an entry of \p Table must have.
llvm::ArrayRef<llvm::StringRef> requiredKeysOf(llvm::StringRef Table);

/// \p Text quoted for a message: 'text', at most 40 characters (then
/// "..."), bytes outside printable ASCII as \xNN.
std::string shown(llvm::StringRef Text);
/// didYouMean() for names of a sane length ("" for a 10 MB key).
std::string suggest(llvm::StringRef Word,
                    llvm::ArrayRef<llvm::StringRef> Candidates);

/// The variables by which a user names a host compiler, in precedence order:
/// "$NVCC_CCBIN", "$CUDAHOSTCXX", "$CXX" (CompilerFacts::ChosenBy).
llvm::ArrayRef<llvm::StringRef> chosenByVariables();

/// Each check returns an error message (lowercase, no period) or nothing.
/// \p Key names the key in the message.
std::optional<std::string> checkVersion(llvm::StringRef Text,
                                        llvm::StringRef Key, Version &Out);
/// "9.0", "12.0", "10.3": MAJOR.MINOR with one or two digits each.
/// How strongly the user chose a host compiler: 0 for $NVCC_CCBIN, 1 for
/// $CUDAHOSTCXX, 2 for $CXX, 3 when not named.
size_t choiceRank(llvm::StringRef ChosenBy);
/// One of chosenByVariables().
std::optional<std::string> checkChosenBy(llvm::StringRef Text);
std::optional<std::string> checkComputeCapability(llvm::StringRef Text,
                                                  Version &Out);
/// sm_NN or sm_NNN with an optional 'a' or 'f' suffix.
std::optional<std::string> checkArch(llvm::StringRef Text);
/// "gcc" or "clang".
std::optional<std::string> checkFamily(llvm::StringRef Text);
std::string familyHint(llvm::StringRef Text);

/// Integer limits.
constexpr int64_t MaxCpus = 1 << 20;
constexpr int64_t MaxCompilerMajor = 999;
/// 1 PiB, in GiB.
constexpr double MaxMemoryGib = 1 << 20;

std::optional<std::string> checkCpus(int64_t Value);
std::optional<std::string> checkCompilerMajor(int64_t Value,
                                              llvm::StringRef Key);
std::optional<std::string> checkMemoryGib(double Value);

/// The compute capability as the facts file writes it ("9.0").
std::string computeCapabilityText(const Version &V);

} // namespace cudadeps::facts_schema

#endif
