//===- GitSource.h - manifest values that reach git or the cache ----------===//
//
// A manifest's `git` URL and its tags are handed to git, and a package's
// name, version and tag become directories under the source cache. Values
// written by others must not be able to make git run a command (an
// option-like `--upload-pack=...`, an `ext::` remote helper, an ssh host
// such as `-oProxyCommand=...`) or make a path leave the cache (`..`, an
// absolute path). The loader checks these when it reads a manifest (so
// `lint` reports them with file:line:col) and the fetcher checks them again
// on the values it is about to use.
//
// The URL schemes allowed are https, ssh (also written scp-style,
// user@host:path) and file (also written as an absolute path). The
// environment variable CUDADEPS_GIT_SCHEMES replaces that list with its own
// comma-separated one (for example "https,ssh,file,http").
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_MANIFEST_GITSOURCE_H
#define CUDADEPS_CORE_MANIFEST_GITSOURCE_H

#include "core/manifest/Manifest.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace cudadeps {

/// The environment variable that lists the allowed git URL schemes.
inline constexpr const char *GitSchemesVariable = "CUDADEPS_GIT_SCHEMES";

/// https, ssh and file.
llvm::ArrayRef<std::string> defaultGitSchemes();

/// The schemes in a comma-separated \p List, lowercased, blanks dropped;
/// the defaults when \p List has none.
std::vector<std::string> parseGitSchemes(llvm::StringRef List);

/// The schemes allowed now: CUDADEPS_GIT_SCHEMES when set, else the
/// defaults.
std::vector<std::string> allowedGitSchemes();

/// One problem with a value; Offset is the byte where it starts.
struct GitProblem {
  size_t Offset = 0;
  std::string Message; // lowercase, no final period
  std::string Hint;    // may be empty
};

/// The scheme \p Url uses: "https", "ssh" for user@host:path, "file" for an
/// absolute path; empty when it is none of the URL forms git reads.
std::string gitUrlScheme(llvm::StringRef Url);

/// Checks a repository URL: one of \p Schemes, not option-like, no remote
/// helper (`ext::`), no host or user that reads as an ssh option, no control
/// characters or blanks, no relative path.
std::optional<GitProblem> checkGitUrl(llvm::StringRef Url,
                                      llvm::ArrayRef<std::string> Schemes);

/// Checks a tag (an expanded one, or a template with its placeholders) by
/// git's ref-name rules (git check-ref-format) and refuses an option-like
/// one.
std::optional<GitProblem> checkGitRef(llvm::StringRef Ref);

/// Checks a path that will be joined under the cache directory: relative,
/// not empty, no `.` or `..` component, no backslash or control character.
std::optional<GitProblem> checkCachePath(llvm::StringRef Path);

/// The checks above as located errors (a DiagnosticError at the value's
/// place, exit code 2), for the fetcher to run on the values it uses. The
/// URL is checked against allowedGitSchemes().
llvm::Error validateGitUrl(const Located &Url);
llvm::Error validateGitRef(const Located &Ref);
llvm::Error validateCachePath(const Located &Path);

} // namespace cudadeps

#endif
