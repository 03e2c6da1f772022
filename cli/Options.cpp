#include "cli/Options.h"

#include "core/support/Diagnostic.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace cudadeps::cli {

std::string ParsedOptions::get(StringRef Name, StringRef Default) const {
  auto It = Values.find(Name.str());
  if (It == Values.end() || It->second.empty())
    return Default.str();
  return It->second.back();
}

std::vector<std::string> ParsedOptions::getAll(StringRef Name) const {
  auto It = Values.find(Name.str());
  return It == Values.end() ? std::vector<std::string>{} : It->second;
}

unsigned ParsedOptions::count(StringRef Name) const {
  auto It = Values.find(Name.str());
  return It == Values.end() ? 0 : It->second.size();
}

ArrayRef<OptionSpec> commonOptions() {
  static const OptionSpec Common[] = {
      {"--help", "-h", "", "show this help and exit"},
      {"--verbose", "-v", "", "more log output on stderr (-vv for trace)", true},
      {"--log-file", "", "FILE", "also write the log to FILE"},
  };
  return Common;
}

static const OptionSpec *findSpec(StringRef Arg, ArrayRef<OptionSpec> A,
                                  ArrayRef<OptionSpec> B) {
  for (ArrayRef<OptionSpec> Table : {A, B})
    for (const OptionSpec &S : Table)
      if (S.Name == Arg || (!S.Short.empty() && S.Short == Arg))
        return &S;
  return nullptr;
}

static Error usageError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

Expected<ParsedOptions> parseOptions(ArrayRef<std::string> Args,
                                     ArrayRef<OptionSpec> Specs) {
  ParsedOptions Out;
  ArrayRef<OptionSpec> Common = commonOptions();
  bool OnlyPositionals = false;
  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef Arg = Args[I];
    if (OnlyPositionals || Arg == "-" || !Arg.startswith("-")) {
      Out.Positionals.push_back(Arg.str());
      continue;
    }
    if (Arg == "--") {
      OnlyPositionals = true;
      continue;
    }
    if (Arg == "-vv") {
      Out.add("--verbose", "");
      Out.add("--verbose", "");
      continue;
    }
    StringRef Name = Arg, Inline;
    bool HasInline = false;
    if (Arg.startswith("--")) {
      auto [N, V] = Arg.split('=');
      HasInline = N.size() != Arg.size();
      Name = N;
      Inline = V;
    }
    const OptionSpec *Spec = findSpec(Name, Specs, Common);
    if (!Spec) {
      std::vector<StringRef> Known;
      for (ArrayRef<OptionSpec> T : {Specs, Common})
        for (const OptionSpec &S : T)
          Known.push_back(S.Name);
      std::string Hint = didYouMean(Name, Known);
      return usageError("unknown option '" + Name + "'" +
                        (Hint.empty() ? "" : "; " + Hint));
    }
    std::string Value;
    if (Spec->ValueName.empty()) {
      if (HasInline)
        return usageError("option '" + Spec->Name + "' takes no value");
    } else if (HasInline) {
      Value = Inline.str();
    } else {
      if (I + 1 >= Args.size())
        return usageError("option '" + Spec->Name + "' needs a value (" +
                          Spec->ValueName + ")");
      Value = Args[++I];
    }
    if (!Spec->Choices.empty() && !is_contained(Spec->Choices, Value)) {
      std::string List;
      for (StringRef C : Spec->Choices)
        List += (List.empty() ? "" : ", ") + C.str();
      std::string Hint = didYouMean(Value, Spec->Choices);
      return usageError("invalid value '" + Value + "' for '" + Spec->Name +
                        "' (expected one of: " + List + ")" +
                        (Hint.empty() ? "" : "; " + Hint));
    }
    if (!Spec->Repeatable && Out.has(Spec->Name) && Value != Out.get(Spec->Name))
      return usageError("option '" + Spec->Name + "' given twice");
    Out.add(Spec->Name, Value);
  }
  return Out;
}

std::string formatOptionHelp(ArrayRef<OptionSpec> Specs) {
  std::string Out;
  raw_string_ostream OS(Out);
  for (const OptionSpec &S : Specs) {
    std::string Left = S.Short.empty() ? "    " : (S.Short + ", ").str();
    Left += S.Name.str();
    if (!S.ValueName.empty())
      Left += " " + S.ValueName.str();
    OS << "  " << left_justify(Left, 26) << ' ' << S.Help;
    if (S.Repeatable && !S.ValueName.empty())
      OS << " (repeatable)";
    OS << '\n';
  }
  return Out;
}

} // namespace cudadeps::cli
