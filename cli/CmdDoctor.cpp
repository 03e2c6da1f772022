//===- CmdDoctor.cpp - cudadeps doctor ------------------------------------===//
//
// Which packages to check: a project's (MANIFEST), the requirements given on
// the command line, or every registry package that is installed; what the
// machine is (the machine options); the checks are core/doctor's. This file
// renders its report as text or JSON.
//
//===----------------------------------------------------------------------===//
#include "cli/Commands.h"
#include "cli/ExitCodes.h"
#include "cli/MachineSetup.h"
#include "core/doctor/Doctor.h"
#include "core/manifest/ManifestLoader.h"
#include "core/support/Printable.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include <set>

using namespace llvm;

namespace cudadeps::cli {

namespace {

std::vector<OptionSpec> doctorOptionTable() {
  std::vector<OptionSpec> Specs = machineOptions();
  Specs.push_back({"--registry", "", "DIR",
                   "look for package manifests in DIR first", true});
  Specs.push_back({"--arch", "", "sm_XX",
                   "check GPU code against this architecture instead of the "
                   "GPUs found",
                   true});
  Specs.push_back({"--format",
                   "",
                   "FORMAT",
                   "text (default) or json",
                   false,
                   {"text", "json"}});
  return Specs;
}

/// A positional that names a manifest rather than a requirement.
bool looksLikeManifest(StringRef Arg) {
  return Arg.endswith(".toml") || Arg.contains('/') ||
         sys::fs::is_regular_file(Arg);
}

/// Adds \p Name and, through the manifests, the packages it requires.
void addWithRequirements(Workspace &W, const std::string &Name,
                         std::optional<Requirement> Wanted,
                         std::set<std::string> &Seen,
                         std::vector<DoctorPackage> &Out) {
  if (!Seen.insert(Name).second)
    return;
  const Package *P = W.find(Name);
  Out.push_back({Name, P, std::move(Wanted)});
  if (!P)
    return;
  for (const auto &[Key, R] : P->Requires)
    if (!isFactKey(Key))
      addWithRequirements(W, Key, R, Seen, Out);
}

struct DoctorPlan {
  std::unique_ptr<Workspace> W;
  DoctorRequest Request;
  MachineFacts Machine;
};

Expected<DoctorPlan> prepare(Context &Ctx, const ParsedOptions &Opts) {
  DoctorPlan Plan;
  const std::vector<std::string> &Args = Opts.Positionals;
  bool FromManifest = Args.size() == 1 && looksLikeManifest(Args.front());
  Expected<std::unique_ptr<Workspace>> W =
      FromManifest   ? loadWorkspace(Ctx, Args.front(), Opts)
      : Args.empty() ? workspaceFor(Ctx, Manifest(), Opts)
                     : [&]() -> Expected<std::unique_ptr<Workspace>> {
    Expected<Manifest> M = requirementsManifest(Args);
    if (!M)
      return M.takeError();
    return workspaceFor(Ctx, std::move(*M), Opts);
  }();
  if (!W)
    return W.takeError();
  Plan.W = std::move(*W);
  Workspace &WS = *Plan.W;

  for (const std::string &A : Opts.getAll("--arch")) {
    if (!isValidArch(A))
      return createStringError(inconvertibleErrorCode(),
                               "invalid --arch '" + A +
                                   "': expected sm_NN, sm_NNa or sm_NNf");
    Plan.Request.TargetArchs.push_back(A);
    Plan.Request.TargetOrigin = "--arch";
  }
  if (Plan.Request.TargetArchs.empty() && WS.Main.Proj &&
      !WS.Main.Proj->TargetArchs.empty()) {
    for (const Arch &A : WS.Main.Proj->TargetArchs)
      Plan.Request.TargetArchs.push_back(A.Name);
    Plan.Request.TargetOrigin = "[target] archs in " + WS.Main.File;
  }

  Expected<MachineFacts> MF = gatherMachineFacts(Ctx, Opts);
  if (!MF)
    return MF.takeError();
  Plan.Machine = std::move(*MF);
  if (Plan.Request.TargetArchs.empty()) {
    for (const GpuFacts &G : Plan.Machine.F.Gpus)
      if (!is_contained(Plan.Request.TargetArchs, G.smArch()))
        Plan.Request.TargetArchs.push_back(G.smArch());
    Plan.Request.TargetOrigin = "GPUs found";
  }

  std::set<std::string> Seen;
  if (WS.Main.Proj) {
    for (const auto &[Key, R] : WS.Main.Proj->Requires)
      if (!isFactKey(Key))
        addWithRequirements(WS, Key, R, Seen, Plan.Request.Packages);
  } else if (WS.Main.Pkg) {
    addWithRequirements(WS, WS.Main.Pkg->canonicalName(), std::nullopt, Seen,
                        Plan.Request.Packages);
  } else {
    // No arguments: every registry package that is installed here.
    Expected<std::vector<const Manifest *>> All = WS.Reg->all();
    if (!All)
      return All.takeError();
    for (const Manifest *M : *All)
      if (M->Pkg && Plan.Machine.F.Packages.count(M->Pkg->canonicalName()))
        addWithRequirements(WS, M->Pkg->canonicalName(), std::nullopt, Seen,
                            Plan.Request.Packages);
  }
  if (WS.hasRegistryError())
    return WS.registryError();
  return Plan;
}

std::string verdictText(const PackageDiagnosis &P) {
  switch (P.Result) {
  case Verdict::Ok:
    return "ok";
  case Verdict::Missing:
    return "missing";
  case Verdict::Stale:
    return "stale (rebuild: `" + P.InstallCommand + "`)";
  case Verdict::WrongArchs:
    return "wrong archs (rebuild for these GPUs: `" + P.InstallCommand + "`)";
  }
  llvm_unreachable("bad verdict");
}

/// Names, versions, paths and messages come from installed metadata and
/// the machine: shown through printableText, so only the colours below
/// reach the terminal as escapes.
std::string shown(StringRef Text) {
  return printableText(Text, /*KeepLineBreaks=*/true);
}

std::string paint(bool On, StringRef Code, StringRef Text) {
  return On ? ("\033[" + Code + "m" + shown(Text) + "\033[0m").str()
            : shown(Text);
}

std::string plural(size_t N, StringRef One, StringRef Many) {
  return std::to_string(N) + " " + (N == 1 ? One : Many).str();
}

void renderText(const DoctorReport &R, const Facts &F, raw_ostream &OS,
                bool Color) {
  if (F.Torch)
    OS << "torch: " << F.Torch->Ver.str() << " ("
       << (F.Torch->Cuda ? "CUDA " + F.Torch->Cuda->str()
                         : std::string("no CUDA"))
       << "), " << shown(F.Torch->From.describe()) << '\n';
  else
    OS << "torch: not installed\n";
  if (R.TargetArchs.empty())
    OS << "targets: none (no GPU found; give --arch sm_XX to check GPU code)\n";
  else
    OS << "targets: " << shown(join(R.TargetArchs, " ")) << " ("
       << shown(R.TargetOrigin) << ")\n";
  if (R.Packages.empty()) {
    OS << "no package to check: none of the registry's packages is "
          "installed here\n";
    return;
  }
  size_t Width = 0;
  for (const PackageDiagnosis &P : R.Packages)
    Width = std::max(Width, P.Name.size());
  std::map<Verdict, size_t> Count;
  for (const PackageDiagnosis &P : R.Packages) {
    ++Count[P.Result];
    StringRef Code = P.Result == Verdict::Ok ? "32" : "31";
    OS << '\n'
       << left_justify(shown(P.Name), Width) << "  "
       << (P.Version ? shown(*P.Version) + "  " : std::string())
       << paint(Color, Code, verdictText(P)) << '\n';
    for (const DoctorCheck &C : P.Checks) {
      StringRef Label = checkStatusName(C.Status);
      OS << "  "
         << (C.Status == CheckStatus::Problem   ? paint(Color, "31", Label)
             : C.Status == CheckStatus::Warning ? paint(Color, "33", Label)
                                                : Label.str())
         << ": " << shown(C.Message) << '\n';
    }
    if (P.Result == Verdict::Missing) {
      for (const FallbackNote &Fb : P.Fallbacks)
        OS << "  without it: fallback '" << shown(Fb.Name)
           << "': " << shown(Fb.Summary)
           << (Fb.Impact.empty() ? "" : " (" + shown(Fb.Impact) + ")") << '\n';
      if (P.Fallbacks.empty())
        OS << "  without it: no fallback is declared; what needs it fails\n";
      OS << "  install: " << shown(P.InstallCommand) << '\n';
    }
  }
  std::vector<std::string> Parts;
  for (Verdict V : {Verdict::Missing, Verdict::Stale, Verdict::WrongArchs})
    if (Count[V])
      Parts.push_back(std::to_string(Count[V]) + " " + verdictName(V).str());
  OS << '\n'
     << Count[Verdict::Ok] << " of "
     << plural(R.Packages.size(), "package", "packages") << " ok"
     << (Parts.empty() ? "" : "; " + join(Parts, ", ")) << '\n';
}

json::Value optionalString(const std::optional<std::string> &S) {
  return S ? json::Value(*S) : json::Value(nullptr);
}

json::Value renderJson(const DoctorReport &R, const Facts &F) {
  json::Array Packages;
  for (const PackageDiagnosis &P : R.Packages) {
    json::Array Checks, Fallbacks, Objects;
    for (const DoctorCheck &C : P.Checks)
      Checks.push_back(json::Object{{"check", checkKindName(C.Kind)},
                                    {"status", checkStatusName(C.Status)},
                                    {"message", C.Message}});
    for (const FallbackNote &Fb : P.Fallbacks)
      Fallbacks.push_back(json::Object{
          {"name", Fb.Name}, {"summary", Fb.Summary}, {"impact", Fb.Impact}});
    for (const InspectedObject &O : P.Objects) {
      json::Array Missing;
      for (const MissingSymbol &M : O.Missing)
        Missing.push_back(
            json::Object{{"symbol", M.Symbol}, {"demangled", M.Demangled}});
      Objects.push_back(json::Object{
          {"path", O.Path},
          {"error",
           O.Error.empty() ? json::Value(nullptr) : json::Value(O.Error)},
          {"cudart_soname_major",
           O.CudartMajor ? json::Value(*O.CudartMajor) : json::Value(nullptr)},
          {"static_cudart", O.StaticCudart},
          {"toolkit_release", O.ToolkitRelease.empty()
                                  ? json::Value(nullptr)
                                  : json::Value(O.ToolkitRelease)},
          {"cubins", O.Cubins},
          {"ptx", O.Ptx},
          {"torch_symbols", O.TorchSymbols},
          {"missing_symbols", std::move(Missing)}});
    }
    Packages.push_back(json::Object{
        {"name", P.Name},
        {"verdict", verdictName(P.Result)},
        {"version", optionalString(P.Version)},
        {"dist_info",
         P.DistInfo.empty() ? json::Value(nullptr) : json::Value(P.DistInfo)},
        {"install_command", P.InstallCommand},
        {"fallbacks", std::move(Fallbacks)},
        {"checks", std::move(Checks)},
        {"shared_objects", std::move(Objects)}});
  }
  json::Value Torch = nullptr;
  if (F.Torch)
    Torch = json::Object{
        {"version", F.Torch->Ver.str()},
        {"cuda", F.Torch->Cuda ? json::Value(F.Torch->Cuda->str())
                               : json::Value(nullptr)},
        {"lib_dir", R.TorchLibDir.empty() ? json::Value(nullptr)
                                          : json::Value(R.TorchLibDir)}};
  return json::Object{{"status", R.allOk() ? "ok" : "problems"},
                      {"torch", std::move(Torch)},
                      {"targets", R.TargetArchs},
                      {"target_origin", R.TargetOrigin},
                      {"packages", std::move(Packages)}};
}

} // namespace

ArrayRef<OptionSpec> doctorOptions() {
  static const std::vector<OptionSpec> Specs = doctorOptionTable();
  return Specs;
}

int runDoctor(Context &Ctx, const ParsedOptions &Opts) {
  Expected<DoctorPlan> Plan = prepare(Ctx, Opts);
  if (!Plan)
    return reportError(Plan.takeError(), Ctx, ExitUsage);
  DoctorReport R = diagnose(Plan->Request, Plan->Machine.F);
  if (Opts.get("--format", "text") == "json")
    Ctx.Out << formatv("{0:2}", renderJson(R, Plan->Machine.F)) << '\n';
  else
    renderText(R, Plan->Machine.F, Ctx.Out, Ctx.Color);
  return R.allOk() ? ExitOk : ExitUnsatisfiable;
}

} // namespace cudadeps::cli
