//===- template.cpp - fuzz build templates ({version}, {gencode}, ...) -----===//
//
// checkTemplate() is what the manifest loader validates templates with;
// a template it accepts is expanded as the builder does, and its
// placeholders are exactly those placeholdersIn() lists.
//
//===----------------------------------------------------------------------===//
#include "FuzzSupport.h"

#include "core/manifest/Template.h"

#include "llvm/ADT/STLExtras.h"

using namespace cudadeps;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Text = fuzz::asText(Data, Size);
  std::vector<TemplateProblem> Problems = checkTemplate(Text);
  for (const TemplateProblem &P : Problems)
    if (P.Offset >= Text.size() || P.Message.empty())
      fuzz::fail("a template problem outside the text or without a message",
                 P.Message);
  if (!Problems.empty())
    return 0;
  std::vector<std::string> Names = placeholdersIn(Text);
  for (const std::string &N : Names)
    if (!llvm::is_contained(knownPlaceholders(), llvm::StringRef(N)))
      fuzz::fail("placeholdersIn() lists an unknown placeholder", N);
  // Every placeholder has a value: expansion must succeed.
  llvm::Expected<std::string> Out = expandTemplate(
      Text, [](llvm::StringRef Name) -> std::optional<std::string> {
        return "<" + Name.str() + ">";
      });
  if (!Out)
    fuzz::fail("a checked template does not expand: " +
                   llvm::toString(Out.takeError()),
               Text);
  // Without values, expansion is an error exactly when there are
  // placeholders.
  llvm::Expected<std::string> Missing = expandTemplate(
      Text, [](llvm::StringRef) -> std::optional<std::string> {
        return std::nullopt;
      });
  if (bool(Missing) != Names.empty())
    fuzz::fail("expansion without values disagrees with placeholdersIn()",
               Text);
  if (!Missing)
    fuzz::consume(Missing.takeError());
  return 0;
}
