//===- Template.h - {placeholder} templates in tags, URLs, argv and env ---===//
//
// Manifests template tags, prebuilt URLs, build commands and environment
// values with {name} placeholders (DESIGN.md section 4). '{{' and '}}' are a
// literal brace. The loader rejects unknown placeholders; the builder and the
// prebuilt resolver expand templates with expandTemplate().
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_MANIFEST_TEMPLATE_H
#define CUDADEPS_CORE_MANIFEST_TEMPLATE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace cudadeps {

/// {version} {src} {out} {nvcc} {cuda_home} {cxx} {jobs} {archs} {gencode}
/// {torch_arch_list} {python} {torch.cuda_major} {torch.major_minor}
/// {torch.cxx11_abi_upper} {python.tag} {platform.tag} {arch_numbers}
/// {release_tag} (the GitHub release a prebuilt binary is attached to)
llvm::ArrayRef<llvm::StringRef> knownPlaceholders();

/// One problem in a template; Offset is the byte offset of the offending
/// '{' or '}' in the template text.
struct TemplateProblem {
  size_t Offset = 0;
  std::string Message; // "unknown placeholder '{verison}'"
  std::string Hint;    // "did you mean '{version}'?" or empty
};

/// All problems in \p Text: unknown placeholders, an unterminated '{', a
/// lone '}'. Empty when the template is valid.
std::vector<TemplateProblem> checkTemplate(llvm::StringRef Text);

/// The placeholder names \p Text uses, in order (for a valid template).
std::vector<std::string> placeholdersIn(llvm::StringRef Text);

/// Expands a template. \p Lookup returns a placeholder's value, or nullopt
/// when it has none here (an error naming the placeholder).
llvm::Expected<std::string> expandTemplate(
    llvm::StringRef Text,
    llvm::function_ref<std::optional<std::string>(llvm::StringRef)> Lookup);

} // namespace cudadeps

#endif
