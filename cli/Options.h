//===- Options.h - a small table-driven command-line option parser ---------===//
//
// Each subcommand declares its options in a table; the parser accepts
// `--name VALUE`, `--name=VALUE`, short aliases, repeatable options and
// positionals, and rejects anything else with "did you mean".
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CLI_OPTIONS_H
#define CUDADEPS_CLI_OPTIONS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <string>
#include <vector>

namespace cudadeps::cli {

struct OptionSpec {
  llvm::StringRef Name;      // "--facts"
  llvm::StringRef Short;     // "-o" or ""
  llvm::StringRef ValueName; // "FILE"; empty = a flag without value
  llvm::StringRef Help;
  bool Repeatable = false;
  /// Allowed values (empty = any), checked by the parser.
  std::vector<llvm::StringRef> Choices = {};
};

class ParsedOptions {
public:
  bool has(llvm::StringRef Name) const { return Values.count(Name.str()); }
  /// Last value given for Name, or Default.
  std::string get(llvm::StringRef Name, llvm::StringRef Default = {}) const;
  /// Every value given for a repeatable option, in order.
  std::vector<std::string> getAll(llvm::StringRef Name) const;
  unsigned count(llvm::StringRef Name) const;
  std::vector<std::string> Positionals;

  void add(llvm::StringRef Name, llvm::StringRef Value) {
    Values[Name.str()].push_back(Value.str());
  }

private:
  std::map<std::string, std::vector<std::string>> Values;
};

/// The options every subcommand accepts.
llvm::ArrayRef<OptionSpec> commonOptions();

/// Parses Args against Specs plus commonOptions(). Errors are usage errors.
llvm::Expected<ParsedOptions> parseOptions(llvm::ArrayRef<std::string> Args,
                                           llvm::ArrayRef<OptionSpec> Specs);

/// The option lines of --help for Specs.
std::string formatOptionHelp(llvm::ArrayRef<OptionSpec> Specs);

} // namespace cudadeps::cli

#endif
