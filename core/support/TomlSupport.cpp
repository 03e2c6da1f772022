//===- TomlSupport.cpp - helpers for reading TOML++ trees -----------------===//

#include "core/support/TomlSupport.h"

namespace cudadeps {

llvm::StringRef typeName(const toml::node &N) {
  switch (N.type()) {
  case toml::node_type::string:
    return "a string";
  case toml::node_type::integer:
    return "an integer";
  case toml::node_type::floating_point:
    return "a float";
  case toml::node_type::boolean:
    return "a boolean";
  case toml::node_type::date:
  case toml::node_type::time:
  case toml::node_type::date_time:
    return "a date";
  case toml::node_type::array:
    return N.is_array_of_tables() ? "an array of tables" : "an array";
  case toml::node_type::table:
    return "a table";
  case toml::node_type::none:
    break;
  }
  return "nothing";
}

SourceLocation locationOf(llvm::StringRef File, const toml::source_region &R) {
  return {File.str(), R.begin.line ? R.begin.line : 1u,
          R.begin.line ? R.begin.column : 1u};
}

} // namespace cudadeps
