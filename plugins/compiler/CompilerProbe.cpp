//===- CompilerProbe.cpp - the "compiler" probe: host C++ compilers -------===//

#include "plugins/compiler/CompilerProbe.h"

#include "core/facts/FactsSchema.h"
#include "plugins/platform/HostFiles.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"

#include <spdlog/spdlog.h>

#include <algorithm>

namespace cudadeps {
namespace compiler {

std::string familyFromVersionOutput(llvm::StringRef Out) {
  if (Out.contains("clang version"))
    return "clang";
  if (Out.contains("Free Software Foundation") ||
      llvm::Regex("^(g\\+\\+|c\\+\\+|gcc|cc)(-[0-9.]+)? \\(").match(Out))
    return "gcc";
  return "";
}

std::optional<std::string> clangVersionFromOutput(llvm::StringRef Out) {
  llvm::SmallVector<llvm::StringRef, 2> M;
  if (llvm::Regex("clang version ([0-9]+(\\.[0-9]+)*)").match(Out, &M))
    return M[1].str();
  return std::nullopt;
}

/// g++, g++-13, clang++, clang++-18.1 (not x86_64-linux-gnu-g++).
static constexpr const char *CompilerNamePattern =
    "^(g\\+\\+|clang\\+\\+)(-[0-9]+(\\.[0-9]+)*)?$";

bool isCompilerName(llvm::StringRef Name) {
  return llvm::Regex(CompilerNamePattern).match(Name);
}

} // namespace compiler

namespace {

using namespace probes;

struct Candidate {
  std::string Path;
  std::string Via; // "$CXX", "$PATH", ...
  bool NvccDefault = false;
  std::string ChosenBy = {}; // "$NVCC_CCBIN", "$CUDAHOSTCXX", "$CXX" or empty
};

/// The first executable \p Name on $PATH, the search recorded in \p Answer.
static std::string findOnPath(const ProbeContext &Ctx, llvm::StringRef Name,
                              ProbeAnswer &Answer) {
  std::vector<std::string> Found =
      searchPath(Ctx.Env, "PATH", Name, Answer.Searches);
  return Found.empty() ? std::string() : Found.front();
}

/// A program named by an environment variable: a path, or a name on PATH.
/// "ccache g++ -m64" names g++.
static std::string resolveProgram(llvm::StringRef Value,
                                  const ProbeContext &Ctx,
                                  ProbeAnswer &Answer) {
  llvm::SmallVector<llvm::StringRef, 4> Words;
  Value.split(Words, ' ', -1, /*KeepEmpty=*/false);
  size_t I = 0;
  while (I + 1 < Words.size() &&
         (llvm::sys::path::filename(Words[I]) == "ccache" ||
          llvm::sys::path::filename(Words[I]) == "sccache"))
    ++I;
  if (Words.empty())
    return {};
  llvm::StringRef Program = Words[I];
  if (Program.contains('/'))
    return isExecutableFile(Program) ? Program.str() : std::string();
  return findOnPath(Ctx, Program, Answer);
}

class CompilerProbe : public Probe {
public:
  llvm::StringRef name() const override { return "compiler"; }
  llvm::StringRef version() const override { return "1"; }
  llvm::Expected<ProbeAnswer> probe(const ProbeContext &Ctx) override;

private:
  std::optional<CompilerFacts> describe(const ProbeContext &Ctx,
                                        const Candidate &C,
                                        ProbeAnswer &Answer) const;
  std::optional<std::string> run(const ProbeContext &Ctx, llvm::StringRef Program,
                                 llvm::StringRef Flag, ProbeAnswer &Answer) const;
};

std::optional<std::string> CompilerProbe::run(const ProbeContext &Ctx,
                                              llvm::StringRef Program,
                                              llvm::StringRef Flag,
                                              ProbeAnswer &Answer) const {
  std::string What = (Program + " " + Flag).str();
  std::optional<ProcessResult> Result =
      runTool(Ctx, {Program.str(), Flag.str()}, What, Answer);
  if (!Result)
    return std::nullopt;
  if (Result->ExitCode != 0) {
    spdlog::debug("compiler probe: {} exited with code {}", What, Result->ExitCode);
    return std::nullopt;
  }
  return std::move(Result->Out);
}

std::optional<CompilerFacts> CompilerProbe::describe(const ProbeContext &Ctx,
                                                     const Candidate &C,
                                                     ProbeAnswer &Answer) const {
  std::optional<std::string> Banner = run(Ctx, C.Path, "--version", Answer);
  if (!Banner)
    return std::nullopt;
  CompilerFacts F;
  F.Path = C.Path;
  F.NvccDefault = C.NvccDefault;
  F.ChosenBy = C.ChosenBy;
  F.Family = compiler::familyFromVersionOutput(*Banner);
  std::optional<std::string> Text;
  std::string From;
  if (F.Family == "clang") {
    Text = compiler::clangVersionFromOutput(*Banner);
    From = C.Path + " --version";
  } else if (F.Family == "gcc") {
    for (const char *Flag : {"-dumpfullversion", "-dumpversion"}) {
      std::optional<std::string> Out = run(Ctx, C.Path, Flag, Answer);
      if (Out && !llvm::StringRef(*Out).trim().empty()) {
        Text = llvm::StringRef(*Out).trim().str();
        From = C.Path + " " + Flag;
        break;
      }
    }
  } else {
    Answer.Warnings.push_back(C.Path + " (" + C.Via +
                              ") is neither gcc nor clang");
    return std::nullopt;
  }
  if (!Text) {
    Answer.Warnings.push_back(C.Path + ": no version found");
    return std::nullopt;
  }
  llvm::Expected<Version> V = Version::parse(*Text);
  if (!V) {
    Answer.Warnings.push_back(From + ": cannot read version '" + *Text +
                              "': " + llvm::toString(V.takeError()));
    return std::nullopt;
  }
  F.Ver = std::move(*V);
  // The user named it: the fact says by which variable.
  F.From = C.ChosenBy.empty() ? Source::probed("compiler", From)
                              : Source{Source::Kind::Overridden, C.ChosenBy,
                                       From};
  return F;
}

llvm::Expected<ProbeAnswer> CompilerProbe::probe(const ProbeContext &Ctx) {
  ProbeAnswer Answer;
  // $PATH is not an input: the searches of it are (Answer.Searches).
  Answer.EnvInputs = {"CXX", "CUDAHOSTCXX", "NVCC_CCBIN"};
  std::vector<Candidate> Candidates;

  // 1. What nvcc runs without -ccbin.
  std::string Default;
  if (std::optional<std::string> CcBin = Ctx.Env.get("NVCC_CCBIN");
      CcBin && !CcBin->empty()) {
    Answer.Searched.push_back("$NVCC_CCBIN=" + *CcBin);
    if (isDirectory(*CcBin)) {
      for (const char *Name : {"g++", "c++", "clang++"})
        if (Default.empty() && isExecutableFile(joinPath(*CcBin, Name)))
          Default = joinPath(*CcBin, Name);
    } else {
      Default = resolveProgram(*CcBin, Ctx, Answer);
    }
    if (Default.empty())
      Answer.Warnings.push_back("$NVCC_CCBIN is " + *CcBin +
                                " but no compiler is there");
  } else {
    Default = findOnPath(Ctx, "g++", Answer);
    if (Default.empty())
      Default = findOnPath(Ctx, "c++", Answer);
  }
  if (!Default.empty())
    Candidates.push_back({Default, "nvcc default", true,
                          Ctx.Env.get("NVCC_CCBIN").value_or("").empty()
                              ? std::string()
                              : std::string("$NVCC_CCBIN")});

  // 2. What the build is told to use.
  for (const char *Var : {"CXX", "CUDAHOSTCXX"}) {
    std::optional<std::string> Value = Ctx.Env.get(Var);
    if (!Value || Value->empty())
      continue;
    Answer.Searched.push_back(std::string("$") + Var + "=" + *Value);
    std::string Path = resolveProgram(*Value, Ctx, Answer);
    if (Path.empty())
      Answer.Warnings.push_back(std::string("$") + Var + " is " + *Value +
                                " but it cannot be found");
    else
      Candidates.push_back(
          {Path, std::string("$") + Var, false, std::string("$") + Var});
  }

  // 3. Every g++/clang++ on PATH.
  Answer.Searched.push_back("g++, g++-N, clang++, clang++-N on $PATH");
  // A compiler installed later changes what this search finds.
  for (std::string &Path : searchPathMatching(
           Ctx.Env, "PATH", compiler::CompilerNamePattern, Answer.Searches))
    Candidates.push_back({std::move(Path), "$PATH"});

  // The same compiler named twice keeps its first spelling and the
  // strongest explicit choice ($NVCC_CCBIN, $CUDAHOSTCXX, $CXX).
  std::vector<std::string> Seen;
  for (Candidate &C : Candidates) {
    std::string Real = realPathOf(C.Path);
    if (Real.empty())
      continue;
    auto First = std::find_if(Candidates.begin(), Candidates.end(),
                              [&](const Candidate &O) {
                                return realPathOf(O.Path) == Real;
                              });
    if (&*First != &C && facts_schema::choiceRank(C.ChosenBy) < facts_schema::choiceRank(First->ChosenBy))
      First->ChosenBy = C.ChosenBy;
  }
  std::vector<const Candidate *> Unique;
  for (const Candidate &C : Candidates) {
    std::string Real = realPathOf(C.Path);
    if (Real.empty() || std::find(Seen.begin(), Seen.end(), Real) != Seen.end())
      continue;
    Seen.push_back(Real);
    appendUnique(Answer.Inputs, C.Path);
    Unique.push_back(&C);
  }
  // Each compiler is asked on a thread of its own (clang++ --version alone
  // takes tens of milliseconds); what they said is kept in their order.
  Answer.Found.Compilers = describeInParallel<CompilerFacts>(
      Unique, Answer, [&](const Candidate &C, ProbeAnswer &Notes) {
        return describe(Ctx, C, Notes);
      });

  if (Answer.Found.Compilers.empty()) {
    return notPresentKeeping(std::move(Answer), "no host C++ compiler found");
  }
  Answer.What = ProbeAnswer::Kind::Found;
  return Answer;
}

} // namespace

std::unique_ptr<Probe> createCompilerProbe() {
  return std::make_unique<CompilerProbe>();
}

} // namespace cudadeps
