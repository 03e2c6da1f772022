//===- NvccProbe.cpp - the "nvcc" probe: every CUDA toolkit on the machine ===//

#include "plugins/nvcc/NvccProbe.h"

#include "plugins/cuda-runtime/PythonEnvironments.h"
#include "core/support/JsonSupport.h"
#include "plugins/platform/HostFiles.h"
#include "core/toolkit/NvccOutput.h"
#include "core/toolkit/ToolkitStore.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"

#include <spdlog/spdlog.h>

#include <algorithm>

namespace cudadeps {
namespace nvcc {

std::optional<std::string> parseVersionOutput(llvm::StringRef Out) {
  return parseNvccVersionOutput(Out);
}

std::optional<std::string> parseVersionJson(llvm::StringRef Json) {
  llvm::Expected<llvm::json::Value> Parsed = parseJson(Json);
  if (!Parsed) {
    llvm::consumeError(Parsed.takeError());
    return std::nullopt;
  }
  const llvm::json::Object *Root = Parsed->getAsObject();
  const llvm::json::Object *Nvcc = Root ? Root->getObject("cuda_nvcc") : nullptr;
  if (!Nvcc)
    return std::nullopt;
  if (llvm::Optional<llvm::StringRef> V = Nvcc->getString("version"))
    return V->str();
  return std::nullopt;
}

HostCompilerLimits parseHostConfig(llvm::StringRef Header) {
  HostCompilerLimits Limits;
  std::optional<unsigned> FirstGcc, FirstClang, LastGcc, LastClang;
  llvm::Regex GccCond("^#[ \t]*if[ \t(]+__GNUC__[ \t]*>[ \t]*([0-9]+)");
  llvm::Regex ClangCond("^#[ \t]*if.*__clang_major__[ \t]*>=[ \t]*([0-9]+)");
  llvm::SmallVector<llvm::StringRef, 0> Lines;
  Header.split(Lines, '\n');
  for (llvm::StringRef Line : Lines) {
    Line = Line.trim();
    llvm::SmallVector<llvm::StringRef, 2> M;
    unsigned N = 0;
    if (GccCond.match(Line, &M) && !M[1].getAsInteger(10, N)) {
      LastGcc = N;
      if (!FirstGcc)
        FirstGcc = N;
    } else if (ClangCond.match(Line, &M) && !M[1].getAsInteger(10, N) && N > 0) {
      LastClang = N - 1;
      if (!FirstClang)
        FirstClang = N - 1;
    } else if (Line.startswith("#error")) {
      if (Line.contains("unsupported GNU version") && LastGcc && !Limits.MaxGcc)
        Limits.MaxGcc = LastGcc;
      if (Line.contains("unsupported clang version") && LastClang &&
          !Limits.MaxClang)
        Limits.MaxClang = LastClang;
    }
  }
  if (!Limits.MaxGcc)
    Limits.MaxGcc = FirstGcc;
  if (!Limits.MaxClang)
    Limits.MaxClang = FirstClang;
  return Limits;
}

std::vector<std::string> parseGpuCodeList(llvm::StringRef Out) {
  return parseNvccGpuCodeList(Out);
}

} // namespace nvcc

namespace {

using namespace probes;

struct Candidate {
  std::string Nvcc;
  std::string Via; // "$CUDA_HOME", "$PATH", "/usr/local/cuda-12.4", ...
};

/// The toolkit root of a bin/nvcc path: <root>/bin/nvcc.
static std::string rootOf(llvm::StringRef Nvcc) {
  return llvm::sys::path::parent_path(llvm::sys::path::parent_path(Nvcc)).str();
}

/// Sorts "cuda-12.4", "cuda-12.10", "cuda" newest version first; names that
/// carry no version keep their order after the versioned ones.
static void sortNewestFirst(std::vector<std::string> &Names,
                            llvm::StringRef Prefix) {
  auto VersionOf = [&](const std::string &Name) -> std::optional<Version> {
    llvm::StringRef Rest = llvm::StringRef(Name).drop_front(Prefix.size());
    Rest.consume_front("-");
    if (Rest.empty())
      return std::nullopt;
    llvm::Expected<Version> V = Version::parse(Rest);
    if (!V) {
      llvm::consumeError(V.takeError());
      return std::nullopt;
    }
    return *V;
  };
  std::stable_sort(Names.begin(), Names.end(),
                   [&](const std::string &A, const std::string &B) {
                     std::optional<Version> VA = VersionOf(A), VB = VersionOf(B);
                     if (VA && VB)
                       return *VB < *VA;
                     return VA.has_value() && !VB.has_value();
                   });
}

/// The nvcc a small wrapper script runs ("#!/bin/sh\nexec /opt/x/bin/nvcc
/// "$@"", as /usr/local/bin/nvcc or Debian's /usr/bin/nvcc are), else "".
static std::string wrappedNvcc(llvm::StringRef Nvcc) {
  std::optional<std::string> Text = readTextFile(Nvcc, 4096);
  if (!Text || !llvm::StringRef(*Text).startswith("#!") || Text->size() >= 4096)
    return {};
  llvm::Regex Target("(/[^ \t\n\"'$;]*/bin/nvcc)([ \t\n\"']|$)");
  llvm::SmallVector<llvm::StringRef, 3> M;
  if (!Target.match(*Text, &M) || M[1] == Nvcc || !isExecutableFile(M[1]))
    return {};
  return M[1].str();
}

class NvccProbe : public Probe {
public:
  llvm::StringRef name() const override { return "nvcc"; }
  llvm::StringRef version() const override { return "1"; }
  llvm::Expected<ProbeAnswer> probe(const ProbeContext &Ctx) override;

private:
  std::vector<Candidate> findCandidates(const ProbeContext &Ctx,
                                        ProbeAnswer &Answer) const;
  std::optional<NvccFacts> describe(const ProbeContext &Ctx,
                                    const Candidate &C,
                                    ProbeAnswer &Answer) const;
  /// Runs `Nvcc Flag`; nullopt (with a warning when it is worth one) when it
  /// could not run, failed or timed out.
  std::optional<std::string> runNvcc(const ProbeContext &Ctx,
                                     llvm::StringRef Nvcc, llvm::StringRef Flag,
                                     ProbeAnswer &Answer, bool WarnOnFailure) const;
};

std::vector<Candidate> NvccProbe::findCandidates(const ProbeContext &Ctx,
                                                 ProbeAnswer &Answer) const {
  std::vector<Candidate> Found;
  auto Add = [&](std::string Nvcc, std::string Via) {
    if (isExecutableFile(Nvcc))
      Found.push_back({std::move(Nvcc), std::move(Via)});
  };

  for (const char *Var : {"CUDA_HOME", "CUDA_PATH"}) {
    std::string Name = std::string("$") + Var;
    std::optional<std::string> Root = Ctx.Env.get(Var);
    if (!Root || Root->empty()) {
      Answer.Searched.push_back(Name + " (unset)");
      continue;
    }
    Answer.Searched.push_back(Name + "=" + *Root);
    std::string Nvcc = joinPath(*Root, "bin", "nvcc");
    // A toolkit installed there later makes a cached answer stale.
    appendUnique(Answer.Inputs, Nvcc);
    if (!isExecutableFile(Nvcc))
      Answer.Warnings.push_back(Name + " is " + *Root + " but " + Nvcc +
                                " does not exist");
    Add(Nvcc, Name);
  }

  // An nvcc installed on $PATH later changes what this search finds.
  Answer.Searched.push_back("$PATH");
  for (std::string &Nvcc : searchPath(Ctx.Env, "PATH", "nvcc", Answer.Searches))
    Add(std::move(Nvcc), "$PATH");

  // /usr/local/cuda, /usr/local/cuda-X.Y (newest first), /opt/cuda*.
  for (auto [Dir, Prefix] : {std::pair<const char *, const char *>{"/usr/local", "cuda"},
                             {"/opt", "cuda"}}) {
    std::string Real = underRoot(Ctx.SysRoot, Dir);
    Answer.Searched.push_back(joinPath(Real, Prefix).append("*"));
    // Only the cuda* entries: other software installed there changes
    // nothing (the directory's modification time would).
    std::vector<std::string> Names =
        listDirectoryMatching(Real, std::string("^") + Prefix, Answer);
    sortNewestFirst(Names, Prefix);
    // The unversioned "cuda" link is the system's default: it goes first.
    auto Plain = std::find(Names.begin(), Names.end(), Prefix);
    if (Plain != Names.end())
      std::rotate(Names.begin(), Plain, Plain + 1);
    for (const std::string &Name : Names)
      Add(joinPath(Real, Name, "bin", "nvcc"), joinPath(Dir, Name));
  }

  std::optional<std::string> Conda = Ctx.Env.get("CONDA_PREFIX");
  if (!Conda || Conda->empty()) {
    Answer.Searched.push_back("conda ($CONDA_PREFIX unset)");
  } else {
    Answer.Searched.push_back("conda ($CONDA_PREFIX=" + *Conda + ")");
    std::string Bin = joinPath(*Conda, "bin");
    if (isDirectory(Bin))
      Answer.Inputs.push_back(Bin);
    appendUnique(Answer.Inputs, joinPath(Bin, "nvcc"));
    Add(joinPath(Bin, "nvcc"), "$CONDA_PREFIX");
  }

  // NVIDIA's wheels: nvidia/cu13/bin/nvcc (CUDA 13+), nvidia/cuda_nvcc/bin/nvcc.
  std::vector<PythonEnvironment> Envs =
      findPythonEnvironments(Ctx.Env, Answer.Searches);
  bool AnySite = false;
  for (const PythonEnvironment &E : Envs) {
    for (const std::string &In : E.Inputs) // pyvenv.cfg
      appendUnique(Answer.Inputs, In);
    for (const std::string &Site : E.SitePackages) {
      AnySite = true;
      Answer.Searched.push_back("pip nvidia-cuda-nvcc in " + Site);
      // Only nvidia/ and its toolkit flavours: the other packages
      // installed there change nothing.
      listDirectoryMatching(Site, "^nvidia$", Answer);
      std::string Nvidia = joinPath(Site, "nvidia");
      for (const std::string &Name :
           listDirectoryMatching(Nvidia, "^(cu[0-9]+|cuda_nvcc)$", Answer)) {
        std::string Nvcc = joinPath(Nvidia, Name, "bin", "nvcc");
        appendUnique(Answer.Inputs, Nvcc);
        Add(std::move(Nvcc), "pip (" + E.FoundVia + ")");
      }
    }
  }
  if (!AnySite)
    Answer.Searched.push_back("pip nvidia-cuda-nvcc (no Python site-packages found)");

  // Toolkits provisioned by `cudadeps toolkit install`.
  std::string Store = toolkitStoreDir(Ctx.Env);
  if (Store.empty()) {
    Answer.Searched.push_back("cudadeps toolkits ($XDG_DATA_HOME and $HOME unset)");
  } else {
    Answer.Searched.push_back("cudadeps toolkits in " + Store);
    // Also when it does not exist yet: a first install creates it.
    Answer.Inputs.push_back(Store);
    std::vector<InstalledToolkit> Provisioned = listInstalledToolkits(Store);
    // Newest first, as for /usr/local/cuda-X.Y.
    for (auto It = Provisioned.rbegin(); It != Provisioned.rend(); ++It)
      Add(joinPath(It->Root, "bin", "nvcc"), "cudadeps toolkit");
  }
  return Found;
}

std::optional<std::string>
NvccProbe::runNvcc(const ProbeContext &Ctx, llvm::StringRef Nvcc,
                   llvm::StringRef Flag, ProbeAnswer &Answer,
                   bool WarnOnFailure) const {
  std::string What = (Nvcc + " " + Flag).str();
  std::optional<ProcessResult> Result =
      runTool(Ctx, {Nvcc.str(), Flag.str()}, What, Answer);
  if (!Result)
    return std::nullopt;
  if (Result->ExitCode != 0) {
    if (WarnOnFailure)
      Answer.Warnings.push_back(What + " exited with code " +
                                std::to_string(Result->ExitCode));
    spdlog::debug("nvcc probe: {} exited with code {}: {}", What,
                  Result->ExitCode, Result->Err);
    return std::nullopt;
  }
  return std::move(Result->Out);
}

std::optional<NvccFacts> NvccProbe::describe(const ProbeContext &Ctx,
                                             const Candidate &C,
                                             ProbeAnswer &Answer) const {
  NvccFacts F;
  F.Path = C.Nvcc;
  Answer.Inputs.push_back(C.Nvcc);

  // The root as spelled, then as resolved (a /usr/bin/nvcc link may point
  // into the real toolkit).
  std::vector<std::string> Roots;
  appendUnique(Roots, rootOf(C.Nvcc));
  appendUnique(Roots, rootOf(realPathOf(C.Nvcc)));
  if (std::string Wrapped = wrappedNvcc(C.Nvcc); !Wrapped.empty()) {
    appendUnique(Roots, rootOf(Wrapped));
    appendUnique(Roots, rootOf(realPathOf(Wrapped)));
  }

  std::optional<std::string> VersionText;
  std::string VersionFrom;
  for (const std::string &Root : Roots) {
    std::string Json = joinPath(Root, "version.json");
    std::optional<std::string> Text = readTextFile(Json);
    if (!Text)
      continue;
    Answer.Inputs.push_back(Json);
    if ((VersionText = nvcc::parseVersionJson(*Text))) {
      VersionFrom = Json;
      break;
    }
  }
  if (!VersionText) {
    std::optional<std::string> Out =
        runNvcc(Ctx, C.Nvcc, "--version", Answer, /*WarnOnFailure=*/true);
    if (!Out)
      return std::nullopt;
    VersionText = nvcc::parseVersionOutput(*Out);
    if (!VersionText) {
      Answer.Warnings.push_back(C.Nvcc + " --version printed no version");
      return std::nullopt;
    }
    VersionFrom = C.Nvcc + " --version";
  }
  llvm::Expected<Version> Ver = Version::parse(*VersionText);
  if (!Ver) {
    Answer.Warnings.push_back(VersionFrom + ": cannot read version '" +
                              *VersionText + "': " +
                              llvm::toString(Ver.takeError()));
    return std::nullopt;
  }
  F.Ver = std::move(*Ver);
  F.From = Source::probed("nvcc", VersionFrom);
  // A toolkit cudadeps provisioned says where it came from.
  if (std::optional<ToolkitOrigin> Origin = readToolkitOrigin(Roots.front())) {
    Answer.Inputs.push_back(joinPath(Roots.front(), ToolkitOriginFile));
    F.From.From += "; provisioned by `cudadeps toolkit install` from " +
                   Origin->describe();
  }

  // crt/host_config.h: <root>/include/crt, <root>/targets/*/include/crt.
  for (const std::string &Root : Roots) {
    std::vector<std::string> Headers = {
        joinPath(Root, "include", "crt", "host_config.h")};
    std::string Targets = joinPath(Root, "targets");
    for (const std::string &Target : listDirectory(Targets))
      Headers.push_back(joinPath(Targets, Target, "include", "crt/host_config.h"));
    auto Found = std::find_if(Headers.begin(), Headers.end(),
                              [](const std::string &H) { return isRegularFile(H); });
    if (Found == Headers.end())
      continue;
    if (std::optional<std::string> Text = readTextFile(*Found)) {
      Answer.Inputs.push_back(*Found);
      nvcc::HostCompilerLimits Limits = nvcc::parseHostConfig(*Text);
      F.MaxGcc = Limits.MaxGcc;
      F.MaxClang = Limits.MaxClang;
      break;
    }
  }

  // --list-gpu-code exists from about 11.x on; an older nvcc just fails.
  if (std::optional<std::string> Out =
          runNvcc(Ctx, C.Nvcc, "--list-gpu-code", Answer, /*WarnOnFailure=*/false))
    F.Archs = nvcc::parseGpuCodeList(*Out);
  spdlog::debug("nvcc probe: {} ({}) is {}", C.Nvcc, C.Via, F.Ver.str());
  return F;
}

llvm::Expected<ProbeAnswer> NvccProbe::probe(const ProbeContext &Ctx) {
  ProbeAnswer Answer;
  // $PATH is not an input: the searches of it are (Answer.Searches).
  Answer.EnvInputs = {"CUDA_HOME",   "CUDA_PATH",     "CONDA_PREFIX",
                      "VIRTUAL_ENV", "XDG_DATA_HOME", "HOME"};
  std::vector<Candidate> Candidates = findCandidates(Ctx, Answer);

  std::vector<std::string> Seen;
  std::vector<const Candidate *> Unique;
  for (const Candidate &C : Candidates) {
    // A wrapper script and the nvcc it runs are one toolkit.
    std::string Wrapped = wrappedNvcc(C.Nvcc);
    std::string Real = realPathOf(Wrapped.empty() ? C.Nvcc : Wrapped);
    if (Real.empty() || std::find(Seen.begin(), Seen.end(), Real) != Seen.end())
      continue;
    Seen.push_back(Real);
    Unique.push_back(&C);
  }

  // Each toolkit is asked on a thread of its own (a few at a time), so
  // toolkits whose nvcc hangs cost one timeout together, not one each; what
  // they said is merged in the order they were found.
  Answer.Found.Nvccs = describeInParallel<NvccFacts>(
      Unique, Answer, [&](const Candidate &C, ProbeAnswer &Notes) {
        return describe(Ctx, C, Notes);
      });

  if (Answer.Found.Nvccs.empty()) {
    return notPresentKeeping(std::move(Answer), Seen.empty()
                                                    ? "no nvcc found"
                                                    : "no usable nvcc found");
  }
  Answer.What = ProbeAnswer::Kind::Found;
  return Answer;
}

} // namespace

std::unique_ptr<Probe> createNvccProbe() { return std::make_unique<NvccProbe>(); }

} // namespace cudadeps
