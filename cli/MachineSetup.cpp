#include "cli/MachineSetup.h"

#include "core/manifest/ManifestLoader.h"
#include "core/plugin/ProbeCache.h"
#include "core/support/Printable.h"
#include "plugins/Builtin.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace cudadeps::cli {

std::vector<OptionSpec> machineOptions() {
  return {
      {"--facts", "", "FILE",
       "describe the machine with a facts file instead of probing it"},
      {"--set", "", "KEY=VALUE",
       "override one fact (empty VALUE = absent), e.g. --set torch.cuda=12.4",
       true},
      {"--plugin", "", "PATH", "load an external probe plugin (.so)", true},
      {"--refresh", "", "", "probe again even if the probe cache is valid"},
  };
}

std::vector<OptionSpec> solveOptions() {
  std::vector<OptionSpec> Specs = machineOptions();
  Specs.push_back({"--registry", "", "DIR",
                   "look for package manifests in DIR first", true});
  Specs.push_back({"--arch", "", "sm_XX",
                   "target this GPU architecture instead of the GPUs found",
                   true});
  Specs.push_back({"--no-fallback", "", "",
                   "a needed fallback is a failure (exit 1)"});
  return Specs;
}

/// $CUDADEPS_PROBE_TIMEOUT=SECONDS: the most one probe command may take;
/// the whole probe phase then gets one and a half times that.
static Error probeTimeoutFromEnv(const Environment &Env, GatherOptions &G) {
  std::optional<std::string> Text = Env.get("CUDADEPS_PROBE_TIMEOUT");
  if (!Text || Text->empty())
    return Error::success();
  double Seconds = 0;
  StringRef T = StringRef(*Text).trim();
  if (T.getAsDouble(Seconds) || !(Seconds > 0) || Seconds > 3600)
    return createStringError(
        inconvertibleErrorCode(),
        "$CUDADEPS_PROBE_TIMEOUT is '%s': expected seconds (more than 0, at "
        "most 3600), such as 10 or 0.5",
        printableText(*Text).c_str());
  G.CommandTimeout = std::chrono::milliseconds(
      std::max<int64_t>(1, static_cast<int64_t>(Seconds * 1000)));
  G.ProbeDeadline = G.CommandTimeout * 3 / 2;
  return Error::success();
}

Expected<MachineFacts> gatherMachineFacts(Context &Ctx,
                                          const ParsedOptions &Opts) {
  static RealEnvironment Env;
  static RealProcessRunner Runner;
  GatherOptions G{Env, Runner};
  if (Error E = probeTimeoutFromEnv(Env, G))
    return E;
  if (Opts.has("--facts"))
    G.FactsFile = Opts.get("--facts");
  G.Overrides = Opts.getAll("--set");
  G.Builtins = builtinProbes();
  G.PluginPaths = Opts.getAll("--plugin");
  G.InstalledPluginDir = Ctx.installedPluginDir();
  G.Refresh = Opts.has("--refresh");
  return gatherFacts(G);
}

const Package *Workspace::find(StringRef Name) {
  auto [It, Inserted] = Found.try_emplace(Name, nullptr);
  if (Inserted)
    It->second = lookup(Name);
  return It->second;
}

bool Workspace::isMainPackage(StringRef Canonical) const {
  return Main.Pkg && Main.Pkg->canonicalName() == Canonical;
}

bool Workspace::has(StringRef Name) {
  auto It = Found.find(Name);
  if (It != Found.end())
    return It->second != nullptr;
  if (isMainPackage(canonicalPackageName(Name)))
    return true;
  if (!Reg)
    return false;
  Expected<bool> Has = Reg->has(Name);
  if (!Has) {
    // find() records the error as it always has.
    consumeError(Has.takeError());
    return find(Name) != nullptr;
  }
  return *Has;
}

const Package *Workspace::lookup(StringRef Name) {
  std::string Canon = canonicalPackageName(Name);
  if (isMainPackage(Canon))
    return &*Main.Pkg;
  if (!Reg)
    return nullptr;
  Expected<const Manifest *> M = Reg->find(Canon);
  if (!M) {
    if (hasRegistryError()) {
      consumeError(M.takeError());
      return nullptr;
    }
    handleAllErrors(
        M.takeError(),
        [&](const DiagnosticError &D) { RegistryDiags = D.diagnostics(); },
        [&](const ErrorInfoBase &E) { RegistryError = E.message(); });
    return nullptr;
  }
  return *M && (*M)->Pkg ? &*(*M)->Pkg : nullptr;
}

Error Workspace::registryError() const {
  if (!RegistryDiags.empty())
    return make_error<DiagnosticError>(RegistryDiags);
  if (!RegistryError.empty())
    return createStringError(inconvertibleErrorCode(), RegistryError);
  return Error::success();
}

Expected<Manifest> requirementsManifest(ArrayRef<std::string> Requirements) {
  std::string Text = "schema = 1\n[project]\nname = \"command-line\"\n"
                     "requires = [\n";
  for (const std::string &R : Requirements) {
    Text += "  \"";
    for (unsigned char C : R) {
      if (C == '"' || C == '\\') {
        Text += '\\';
        Text += char(C);
      } else if (C < 0x20 || C == 0x7f) {
        Text += formatv("\\u{0:x-4}", unsigned(C)).str();
      } else {
        Text += char(C);
      }
    }
    Text += "\",\n";
  }
  Text += "]\n";
  return parseManifest(Text, "<command line>");
}

bool namesManifestFile(ArrayRef<std::string> Inputs) {
  return Inputs.size() == 1 &&
         (sys::fs::exists(Inputs.front()) ||
          StringRef(Inputs.front()).endswith(".toml"));
}

Expected<std::unique_ptr<Workspace>>
loadWorkspaceFor(Context &Ctx, ArrayRef<std::string> Inputs,
                 const ParsedOptions &Opts) {
  if (namesManifestFile(Inputs))
    return loadWorkspace(Ctx, Inputs.front(), Opts);
  Expected<Manifest> M = requirementsManifest(Inputs);
  if (!M)
    return M.takeError();
  return workspaceFor(Ctx, std::move(*M), Opts);
}

Error checkRequirementsHaveManifests(Workspace &W) {
  if (!W.Main.Proj)
    return Error::success();
  std::vector<Diagnostic> Diags;
  std::vector<std::string> Names;
  bool Listed = false;
  std::string Where;
  for (const std::string &D : W.Reg->dirs())
    Where += (Where.empty() ? "" : ", ") + D;
  std::vector<const Requirement *> Missing;
  for (const auto &[Key, R] : W.Main.Proj->Requires)
    if (!W.find(Key))
      Missing.push_back(&R);
  if (W.hasRegistryError())
    return W.registryError();
  // In the order they are written.
  stable_sort(Missing, [](const Requirement *A, const Requirement *B) {
    return std::make_pair(A->Loc.Line, A->Loc.Column) <
           std::make_pair(B->Loc.Line, B->Loc.Column);
  });
  for (const Requirement *R : Missing) {
    if (!Listed) {
      Listed = true;
      Expected<std::vector<const Manifest *>> All = W.Reg->all();
      if (!All)
        return All.takeError();
      for (const Manifest *M : *All)
        if (M->Pkg)
          Names.push_back(M->Pkg->canonicalName());
    }
    std::vector<StringRef> Refs(Names.begin(), Names.end());
    std::string Hint = didYouMean(R->Key, Refs);
    if (Hint.empty())
      Hint = "add its manifest to a registry directory (--registry DIR)";
    Diagnostic D;
    D.Loc = R->Loc;
    D.Message = "no manifest for package '" + R->Key + "' (searched: " +
                (Where.empty() ? std::string("no registry directory") : Where) +
                ")";
    D.SourceLine = sourceLine(W.Main.Text, R->Loc.Line);
    D.Hint = std::move(Hint);
    Diags.push_back(std::move(D));
  }
  if (Diags.empty())
    return Error::success();
  return make_error<DiagnosticError>(std::move(Diags));
}

Expected<std::unique_ptr<Workspace>>
loadWorkspace(Context &Ctx, StringRef ManifestPath, const ParsedOptions &Opts) {
  Expected<Manifest> M = loadManifest(ManifestPath);
  if (!M)
    return M.takeError();
  return workspaceFor(Ctx, std::move(*M), Opts);
}

Expected<std::unique_ptr<Workspace>> workspaceFor(Context &Ctx, Manifest Main,
                                                  const ParsedOptions &Opts) {
  auto W = std::make_unique<Workspace>();
  W->Main = std::move(Main);
  std::vector<std::string> CommandLine = Opts.getAll("--registry");
  for (const std::string &D : CommandLine)
    if (!sys::fs::is_directory(D))
      return createStringError(inconvertibleErrorCode(),
                               "--registry " + D + ": not a directory");
  std::vector<std::string> ProjectDirs;
  if (W->Main.Proj)
    for (const Located &L : W->Main.Proj->Registry)
      ProjectDirs.push_back(L.Value);
  const char *Env = std::getenv("CUDADEPS_REGISTRY");
  // Parsed manifests and tables are kept in the cache directory the probes
  // use.
  static RealEnvironment RealEnv;
  std::string CacheDir = ProbeCache::defaultDir(RealEnv);
  W->Reg = std::make_unique<Registry>(
      registrySearchPath(CommandLine, ProjectDirs, Env ? Env : "",
                         Ctx.installedRegistry()),
      CacheDir);
  SmallString<256> KBDir(Ctx.installedRegistry());
  sys::path::append(KBDir, "cuda");
  if (sys::fs::is_directory(KBDir)) {
    Expected<KnowledgeBase> KB = KnowledgeBase::loadDirectory(KBDir, CacheDir);
    if (!KB)
      return KB.takeError();
    W->KB = std::move(*KB);
  }
  return W;
}

} // namespace cudadeps::cli
