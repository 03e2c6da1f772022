//===- ProbeInputs.h - searches and listings a probe's answer depends on --===//
//
// Besides whole files (fingerprinted) and environment values, an answer
// depends on two things that are cheaper and sturdier to check by doing them
// again than by fingerprinting what they looked at:
//  - a search of the directories named by a variable such as $PATH for an
//    executable: the answer depends on what the search finds, not on the
//    variable's text, so a directory that a wrapper (perf, pyenv, a build
//    tool) puts in front of $PATH and that holds no such program leaves the
//    answer valid;
//  - the entries of a directory whose names match a pattern (the
//    *.dist-info of site-packages, the cuda* of /opt): the answer depends on
//    those names only, so another file created there (a __pycache__, a
//    temporary file) leaves it valid, where the directory's modification
//    time would not.
// Probes record them through these functions; the probe cache repeats them.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_PLUGIN_PROBEINPUTS_H
#define CUDADEPS_CORE_PLUGIN_PROBEINPUTS_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace cudadeps {

class Environment;

/// The executables found in the directories of $Variable, in search order.
struct PathSearch {
  std::string Variable; // "PATH"
  /// An exact file name ("nvcc"), or, when empty, Pattern.
  std::string Name;
  /// An extended regular expression for file names (only when Name is "").
  std::string Pattern;
  /// Every match, spelled as found (directory + name), each once.
  std::vector<std::string> Found;

  bool operator==(const PathSearch &) const = default;
};

/// The entries of a directory whose names match a pattern.
struct DirListing {
  std::string Dir;
  /// An extended regular expression; "" = every entry.
  std::string Pattern;
  /// The matching names, sorted (empty when the directory does not exist).
  std::vector<std::string> Names;

  bool operator==(const DirListing &) const = default;
};

/// The directories a search looks in: the variable's value, colon
/// separated, empty entries skipped.
std::vector<std::string> searchDirectories(const PathSearch &S,
                                           const Environment &Env);

/// For a pattern search: each of its directories with the sorted names in
/// it that match the pattern (a directory that two entries of the variable
/// name, /bin and /usr/bin, is read once).
std::vector<DirListing> listSearchDirectories(const PathSearch &S,
                                              const Environment &Env);

/// For a pattern search: the sorted names in \p Dir that match \p Pattern
/// (the probe cache answers from what it recorded while the directory is
/// unchanged, instead of reading /usr/bin again).
using SearchLister = llvm::function_ref<std::vector<std::string>(
    llvm::StringRef Dir, llvm::StringRef Pattern)>;

/// Runs a search: for each of its directories, the executable regular files
/// called Name, or, for a pattern, every such file whose name matches
/// (sorted by name within a directory; \p List lists a directory when
/// given). Fills and returns S.Found.
const std::vector<std::string> &
runPathSearch(PathSearch &S, const Environment &Env, SearchLister List = {});

/// Lists L.Dir into L.Names; returns them.
const std::vector<std::string> &runDirListing(DirListing &L);

} // namespace cudadeps

#endif
