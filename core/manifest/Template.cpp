#include "core/manifest/Template.h"

#include "core/support/Diagnostic.h"

#include "llvm/ADT/Twine.h"

using namespace llvm;

namespace cudadeps {

ArrayRef<StringRef> knownPlaceholders() {
  static const StringRef Names[] = {
      "version",        "src",
      "out",            "nvcc",
      "cuda_home",      "cxx",
      "jobs",           "archs",
      "gencode",        "torch_arch_list",
      "python",         "torch.cuda_major",
      "torch.major_minor", "torch.cxx11_abi_upper",
      "python.tag",     "platform.tag",
      "arch_numbers",   "release_tag"};
  return Names;
}

static bool isKnownPlaceholder(StringRef Name) {
  return llvm::is_contained(knownPlaceholders(), Name);
}

namespace {
/// Walks a template: calls OnText for literal text, OnPlaceholder for
/// {name}, OnProblem for malformed braces. Shared by check and expand.
struct Walker {
  function_ref<void(StringRef)> OnText;
  function_ref<void(StringRef, size_t)> OnPlaceholder;
  function_ref<void(size_t, StringRef)> OnProblem;

  void run(StringRef Text) const {
    size_t I = 0;
    while (I < Text.size()) {
      char C = Text[I];
      if (C == '{' && Text.substr(I).startswith("{{")) {
        OnText("{");
        I += 2;
        continue;
      }
      if (C == '}' && Text.substr(I).startswith("}}")) {
        OnText("}");
        I += 2;
        continue;
      }
      if (C == '}') {
        OnProblem(I, "unmatched '}' in template; write '}}' for a literal brace");
        ++I;
        continue;
      }
      if (C != '{') {
        size_t Next = Text.find_first_of("{}", I);
        if (Next == StringRef::npos)
          Next = Text.size();
        OnText(Text.slice(I, Next));
        I = Next;
        continue;
      }
      size_t Close = Text.find_first_of("{}", I + 1);
      if (Close == StringRef::npos || Text[Close] == '{') {
        OnProblem(I, "unterminated placeholder in template; write '{{' for a "
                     "literal brace");
        ++I;
        continue;
      }
      OnPlaceholder(Text.slice(I + 1, Close), I);
      I = Close + 1;
    }
  }
};
} // namespace

std::vector<TemplateProblem> checkTemplate(StringRef Text) {
  std::vector<TemplateProblem> Problems;
  auto OnText = [](StringRef) {};
  auto OnPlaceholder = [&](StringRef Name, size_t Offset) {
    if (isKnownPlaceholder(Name))
      return;
    TemplateProblem P;
    P.Offset = Offset;
    std::string Shown = Name.take_front(60).str();
    P.Message = "unknown placeholder '{" + Shown + "}'";
    if (auto Near = nearestName(Name, knownPlaceholders()))
      P.Hint = "did you mean '{" + *Near + "}'?";
    Problems.push_back(std::move(P));
  };
  auto OnProblem = [&](size_t Offset, StringRef Message) {
    Problems.push_back({Offset, Message.str(), {}});
  };
  Walker{OnText, OnPlaceholder, OnProblem}.run(Text);
  return Problems;
}

std::vector<std::string> placeholdersIn(StringRef Text) {
  std::vector<std::string> Names;
  auto OnText = [](StringRef) {};
  auto OnPlaceholder = [&](StringRef Name, size_t) {
    Names.push_back(Name.str());
  };
  auto OnProblem = [](size_t, StringRef) {};
  Walker{OnText, OnPlaceholder, OnProblem}.run(Text);
  return Names;
}

Expected<std::string>
expandTemplate(StringRef Text,
               function_ref<std::optional<std::string>(StringRef)> Lookup) {
  std::string Out;
  std::string Problem;
  auto OnText = [&](StringRef S) { Out += S.str(); };
  auto OnPlaceholder = [&](StringRef Name, size_t) {
    if (!Problem.empty())
      return;
    if (!isKnownPlaceholder(Name)) {
      Problem = ("unknown placeholder '{" + Name + "}'").str();
      return;
    }
    std::optional<std::string> Value = Lookup(Name);
    if (!Value) {
      Problem = ("placeholder '{" + Name + "}' has no value here").str();
      return;
    }
    Out += *Value;
  };
  auto OnProblem = [&](size_t, StringRef Message) {
    if (Problem.empty())
      Problem = Message.str();
  };
  Walker{OnText, OnPlaceholder, OnProblem}.run(Text);
  if (!Problem.empty())
    return createStringError(inconvertibleErrorCode(),
                             "in template '" + Text.str() + "': " + Problem);
  return Out;
}

} // namespace cudadeps
