//===- Provision.cpp - which toolkit `--provision` assembles, and for what -===//
#include "core/plan/Provision.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace cudadeps {

std::vector<std::string> packagesWithoutBuild(const Resolution &R,
                                              const PackageLookup &Lookup) {
  std::vector<std::string> Out;
  for (const PackageResolution &PR : R.Packages) {
    if (PR.How != Strategy::Fallback && PR.How != Strategy::Unsatisfiable)
      continue;
    const Package *Pkg = Lookup(PR.Name);
    if (Pkg && Pkg->Kind != BuildKind::Python)
      Out.push_back(PR.Name);
  }
  return Out;
}

NvccFacts provisionedNvcc(const ProvisionRow &Row, StringRef Root,
                          const KnowledgeBase &KB) {
  NvccFacts N;
  SmallString<256> Path(Root);
  sys::path::append(Path, "bin", "nvcc");
  N.Path = std::string(Path);
  N.Ver = Row.Cuda;
  if (const ToolkitRow *T = KB.toolkit(Row.Cuda)) {
    N.MaxGcc = T->MaxGcc;
    N.MaxClang = T->MaxClang;
  }
  N.From = Source::declared(
      "manifests/cuda/provisioning.toml",
      formatv("{0}:{1}", Row.Loc.Line, Row.Loc.Column).str());
  return N;
}

static std::string mm(const Version &V) {
  return formatv("{0}.{1}", V.major(), V.minor()).str();
}

Expected<std::optional<ProvisionChoice>>
chooseProvision(const ResolveRequest &Req, const PackageLookup &Lookup,
                const Facts &F, const KnowledgeBase &KB,
                const Resolution &Before, StringRef Store) {
  std::vector<std::string> Without = packagesWithoutBuild(Before, Lookup);
  if (Without.empty())
    return std::nullopt;
  // The CUDA the build must match: torch's, else what the driver runs.
  std::optional<Version> Cuda;
  std::string Why;
  if (F.Torch && F.Torch->Cuda) {
    Cuda = *F.Torch->Cuda;
    Why = "torch " + F.Torch->Ver.str() + " is built with CUDA " + mm(*Cuda);
  } else if (!F.Torch && F.Driver && F.Driver->Cuda) {
    Cuda = *F.Driver->Cuda;
    Why = "the driver runs CUDA " + mm(*Cuda) + " at most";
  }
  if (!Cuda)
    return createStringError(
        inconvertibleErrorCode(),
        "--provision: no toolkit is chosen: %s",
        F.Torch ? ("torch " + F.Torch->Ver.str() + " names no CUDA version")
                      .c_str()
                : "neither torch nor a driver says which CUDA to match");
  ProvisionChoice C;
  C.Why = Why;
  if ((C.Row = KB.provision(Version({Cuda->major(), Cuda->minor()})))) {
    C.Request = mm(*Cuda);
  } else if ((C.Row = KB.provision(Version({Cuda->major()})))) {
    C.Request = std::to_string(Cuda->major());
    C.Why += " (no CUDA " + mm(*Cuda) + " can be provisioned; " +
             mm(C.Row->Cuda) + " is the newest of CUDA " +
             std::to_string(Cuda->major()) + " that can)";
  } else {
    std::string Reason;
    if (const NoProvisionRow *No = KB.noProvision(Cuda->major()))
      Reason = ": " + No->Reason;
    return createStringError(
        inconvertibleErrorCode(),
        "--provision: no CUDA %llu toolkit can be provisioned without root%s "
        "(%s); `cudadeps resolve` names where one comes from",
        (unsigned long long)Cuda->major(), Reason.c_str(), Why.c_str());
  }
  for (const NvccFacts &N : F.Nvccs)
    if (N.Ver == C.Row->Cuda)
      return std::nullopt; // already there: provisioning changes nothing
  Facts With = F;
  SmallString<256> Root(Store);
  sys::path::append(Root, C.Row->Cuda.str());
  With.Nvccs.push_back(provisionedNvcc(*C.Row, Root, KB));
  Expected<Resolution> After = resolve(Req, Lookup, With, KB);
  if (!After)
    return After.takeError();
  for (const std::string &Name : Without)
    if (const PackageResolution *PR = After->find(Name))
      if (PR->How == Strategy::Source)
        C.For.push_back(Name);
  C.After = std::move(*After);
  return std::optional<ProvisionChoice>(std::move(C));
}

} // namespace cudadeps
