//===- Resolver.cpp - manifests + machine facts -> PubGrub -> decisions
//-----===//
#include "core/plan/Resolver.h"

#include "core/plan/FactProvider.h"
#include "core/plan/ReasonLines.h"

#include "core/manifest/Template.h"
#include "core/solver/PackageSolver.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"

#include <cassert>
#include <map>
#include <memory>
#include <set>
#include <tuple>
#include <unordered_map>

using namespace llvm;

namespace cudadeps {

StringRef strategyName(Strategy S) {
  switch (S) {
  case Strategy::Source:
    return "source";
  case Strategy::Prebuilt:
    return "prebuilt";
  case Strategy::NoBuild:
    return "no-build";
  case Strategy::Fallback:
    return "fallback";
  case Strategy::Unsatisfiable:
    return "unsatisfiable";
  }
  llvm_unreachable("bad strategy");
}

StringRef statusName(ResolveStatus S) {
  switch (S) {
  case ResolveStatus::Resolved:
    return "resolved";
  case ResolveStatus::Fallback:
    return "fallback";
  case ResolveStatus::Unsatisfiable:
    return "unsatisfiable";
  }
  llvm_unreachable("bad status");
}

const PackageResolution *Resolution::find(StringRef Name) const {
  for (const PackageResolution &P : Packages)
    if (P.Name == Name)
      return &P;
  return nullptr;
}

using TermT = PackageTerm;
using namespace encoding;

/// How many decisions the question "why not the newest release from
/// source?" may make per package. The question reuses what the solve
/// learned, so a reason is found within a few: on the shipped manifests and
/// every test scenario the most any needs is 6 (almost all fail without
/// deciding anything). A problem that needs more (only in registries of
/// hundreds of packages) leaves the package without that line rather than
/// re-solving everything per package; so does one beyond the solver's
/// other query limits (Solver::QueryLimits: 64 conflicts, 1,000 learned
/// incompatibilities; on the generated registries the most any needs is 5
/// and 720).
constexpr unsigned WhyNotDecisions = 12;

namespace {

/// One solve: the request it answered, its provider (which knows the facts
/// and hints it generated), the solver (for queries about variants) and the
/// result.
struct Attempt {
  std::unique_ptr<ResolveRequest> Req;
  std::unique_ptr<FactProvider> Prov;
  std::unique_ptr<PackageSolver> Solver;
  PackageSolveResult Result;
};

Attempt solveAttempt(const ResolveRequest &Base, RequirementMap Reqs,
                     const PackageLookup &Lookup, const PackageExists &Exists,
                     const Facts &F, const KnowledgeBase &KB,
                     const std::vector<std::string> &Targets) {
  Attempt A;
  A.Req = std::make_unique<ResolveRequest>(Base);
  A.Req->Requires = std::move(Reqs);
  A.Prov = std::make_unique<FactProvider>(*A.Req, Lookup, F, KB, Targets,
                                          Exists);
  A.Solver =
      std::make_unique<PackageSolver>(*A.Prov, A.Req->RootName, Version({0}));
  A.Result = A.Solver->solve();
  return A;
}

/// A set of a manifest package's releases in words. The set's own text when
/// it is one plain range (what a requirement says: ">=1.5", "any"); else
/// the releases it holds, as runs of consecutive releases (">=1.5.3" for
/// "==1.5.3 || ==1.5.4 || ==1.6.0" when those are the newest ones).
/// Releases is sorted oldest first.
std::string releaseText(const VersionSet &Set,
                        const std::vector<Version> &Releases) {
  std::string Plain = Set.displayStr();
  bool Simple = Plain.find(" other than ") == std::string::npos &&
                Plain.rfind("other than ", 0) == std::string::npos &&
                Plain.find(" or ") == std::string::npos;
  if (Simple || Releases.empty())
    return Plain;
  std::vector<size_t> In;
  for (size_t I = 0; I < Releases.size(); ++I)
    if (Set.contains(Releases[I]))
      In.push_back(I);
  if (In.empty())
    return Plain;
  if (In.size() == Releases.size())
    return "any";
  std::vector<std::string> Runs;
  for (size_t K = 0; K < In.size();) {
    size_t J = K;
    while (J + 1 < In.size() && In[J + 1] == In[J] + 1)
      ++J;
    const Version &Lo = Releases[In[K]], &Hi = Releases[In[J]];
    if (K == J)
      Runs.push_back("==" + Lo.str());
    else if (In[K] == 0)
      Runs.push_back("<=" + Hi.str());
    else if (In[J] + 1 == Releases.size())
      Runs.push_back(">=" + Lo.str());
    else
      Runs.push_back(">=" + Lo.str() + ",<=" + Hi.str());
    K = J + 1;
  }
  return join(Runs, " or ");
}

/// Report wording for cudadeps' encoding: strategies and compiler families
/// are epochs; they read as words, and a package's sets are worded by the
/// releases they hold.
PackageReportStyle reportStyle(const PackageLookup &Lookup) {
  PackageReportStyle Base = pep440ReportStyle();
  PackageReportStyle S = Base;
  // Releases of a package in one strategy, oldest first; listed once per
  // package and strategy (a long reason words thousands of sets). The
  // packages outlive the style: it is made for one resolve.
  using ReleaseLists =
      std::map<std::pair<const Package *, bool>, std::vector<Version>>;
  auto Lists = std::make_shared<ReleaseLists>();
  auto ReleasesOf = [Lists](const Package &Pkg,
                            uint64_t Epoch) -> const std::vector<Version> & {
    bool Source = Epoch == SourceEpoch;
    auto [It, Inserted] = Lists->try_emplace({&Pkg, Source});
    std::vector<Version> &Out = It->second;
    if (!Inserted)
      return Out;
    for (size_t I = 0; I < Pkg.Releases.size(); ++I)
      if (Source || (Pkg.Kind != BuildKind::Python && Pkg.Releases[I].Prebuilt))
        Out.push_back(Pkg.Releases.version(I));
    stable_sort(Out);
    return Out;
  };
  // A part of a set that holds no release of its strategy says nothing to
  // a reader ("other than 1.5.4, 1.6.1 (prebuilt)" when those are the only
  // prebuilt releases): it is left out.
  auto Holds = [](const VersionSet &Part, const std::vector<Version> &Rs) {
    return any_of(Rs, [&](const Version &V) { return Part.contains(V); });
  };
  auto Strategies = [Base, ReleasesOf, Holds](const Package &Pkg,
                                              const VersionSet &Set)
      -> std::string {
    if (Set.isAny())
      return "any";
    VersionSet E0 = project(Set, PrebuiltEpoch),
               E1 = project(Set, SourceEpoch);
    const std::vector<Version> &SrcRs = ReleasesOf(Pkg, SourceEpoch);
    std::string Src = releaseText(E1, SrcRs);
    if (Pkg.Kind == BuildKind::Python)
      return Src;
    const std::vector<Version> &PreRs = ReleasesOf(Pkg, PrebuiltEpoch);
    std::string Pre = releaseText(E0, PreRs);
    bool Has0 = !E0.isEmpty(), Has1 = !E1.isEmpty();
    if (Has0 && Has1 && (E0 == E1 || Src == Pre))
      return Src;
    bool Real0 = Holds(E0, PreRs), Real1 = Holds(E1, SrcRs);
    if (Has0 && Has1 && (Real0 || Real1)) {
      Has0 = Real0;
      Has1 = Real1;
    }
    std::string Out;
    if (Has1)
      Out += Src + " (source build)";
    if (Has0)
      Out += (Out.empty() ? "" : " or ") + Pre + " (prebuilt)";
    return Out.empty() ? Base.Set(Set) : Out;
  };
  auto FamilyParts = [Base](const VersionSet &Set) {
    std::vector<std::string> Parts;
    VersionSet Gcc = project(Set, GccEpoch), Clang = project(Set, ClangEpoch);
    if (!Gcc.isEmpty())
      Parts.push_back("gcc " + Base.Set(Gcc));
    if (!Clang.isEmpty())
      Parts.push_back("clang " + Base.Set(Clang));
    return Parts;
  };
  auto Families = [FamilyParts](const VersionSet &Set) -> std::string {
    if (Set.isAny() || (project(Set, GccEpoch).isAny() &&
                        project(Set, ClangEpoch).isAny()))
      return "any";
    std::vector<std::string> Parts = FamilyParts(Set);
    if (Parts.empty())
      return "none";
    // "(gcc <15 or clang <20)": one term among others joined by "or".
    return Parts.size() == 1 ? Parts.front() : "(" + join(Parts, " or ") + ")";
  };
  // "no versions of X match S": what the machine or the manifest lacks.
  S.NoVersions = [Base, Lookup, ReleasesOf, FamilyParts](
                     const std::string &P, const VersionSet &Set) {
    if (P == CompilerPkg)
      return "the machine has no host compiler " +
             join(FamilyParts(Set), " or ");
    if (P == NvccPkg)
      return "the machine has no nvcc " + Base.Set(Set);
    const Package *Pkg = Lookup(P);
    if (!Pkg)
      return std::string();
    std::vector<std::string> Parts;
    auto Part = [&](uint64_t Epoch, const char *Kind) {
      VersionSet E = project(Set, Epoch);
      if (E.isEmpty())
        return;
      std::string Text = Base.Set(E);
      std::string What = std::string("no ") + Kind + "release";
      if (Text == "any")
        Parts.push_back(What);
      else if (Text.rfind("other than ", 0) == 0)
        Parts.push_back(What + " " + Text);
      else
        Parts.push_back(What + " matching " + Text);
    };
    bool Compiles = Pkg->Kind != BuildKind::Python;
    Part(SourceEpoch, Compiles ? "source " : "");
    if (Compiles && !ReleasesOf(*Pkg, PrebuiltEpoch).empty())
      Part(PrebuiltEpoch, "prebuilt ");
    else if (Compiles && !project(Set, PrebuiltEpoch).isEmpty())
      Parts.push_back("no prebuilt release");
    if (Parts.empty())
      return std::string();
    return P + " has " + join(Parts, " and ");
  };
  S.Package = [](const std::string &P) {
    return P == CompilerPkg ? std::string("host compiler") : P;
  };
  S.PackageSet = [Base, Lookup, Strategies, Families](const std::string &P,
                                                      const VersionSet &Set) {
    if (P == CompilerPkg)
      return Families(Set);
    if (const Package *Pkg = Lookup(splitExtra(P).first))
      return Strategies(*Pkg, Set);
    return Base.Set(Set);
  };
  // A derivation names the same terms many times (thousands of lines for a
  // registry of hundreds of packages): each set of a package is worded once,
  // found by the set's hash (package and set compare exactly; a package of a
  // large derivation has hundreds of distinct sets).
  struct Wording {
    std::string Package;
    VersionSet Set;
    std::string Text;
  };
  using Wordings = std::unordered_map<uint64_t, std::vector<Wording>>;
  auto Worded = std::make_shared<Wordings>();
  S.PackageSet = [Word = S.PackageSet, Worded](const std::string &P,
                                               const VersionSet &Set) {
    std::vector<Wording> &Known = (*Worded)[Set.hash()];
    for (const Wording &W : Known)
      if (W.Package == P && W.Set == Set)
        return W.Text;
    Known.push_back({P, Set, Word(P, Set)});
    return Known.back().Text;
  };
  return S;
}

/// One line per toolkit or compiler not chosen: "WHAT not used: R1; R2".
void addNotChosen(std::vector<std::string> &Lines, const std::string &What,
                  const std::string &Reason) {
  std::string Head = What + " not used: ";
  for (std::string &L : Lines) {
    if (!StringRef(L).startswith(Head))
      continue;
    SmallVector<StringRef, 4> Known;
    StringRef(L).drop_front(Head.size()).split(Known, "; ");
    if (!is_contained(Known, Reason))
      L += "; " + Reason;
    return;
  }
  Lines.push_back(Head + Reason);
}

std::vector<std::string> reasonsOf(ArrayRef<PackageCause> Causes,
                                   const FactProvider &Prov,
                                   const std::string &Root,
                                   const PackageReportStyle &Style,
                                   std::vector<std::string> &HintsOut) {
  ReasonLines Lines;
  // Machine facts first, then unavailable versions, then the rest: the
  // order a reader needs ("no nvcc", "torch needs 12.x", "no wheel"); a
  // requirement before what the machine has of it ("fla needs transformers
  // >=5.6.2", then "transformers 5.2.0 is installed"), whichever order the
  // solver met them in.
  std::vector<size_t> Ids(Causes.size());
  for (size_t K = 0; K < Causes.size(); ++K)
    Ids[K] = K;
  auto Rank = [&](size_t Id) {
    const PackageCause &N = Causes[Id];
    switch (N.Kind) {
    case solver::CauseKind::Custom:
      // Something missing from the machine ({nvcc any}) comes first.
      return N.Terms.size() == 1 && N.Terms[0].Positive &&
                     N.Terms[0].Set->isAny()
                 ? 0
                 : 1;
    case solver::CauseKind::Unavailable:
      return 2;
    case solver::CauseKind::NoVersions:
      return 4;
    default:
      return 3;
    }
  };
  // In rank order, each rank's in the order given: each rank computed once
  // (a stable sort asks it at every comparison).
  std::vector<std::pair<unsigned, size_t>> Ranked;
  Ranked.reserve(Ids.size());
  constexpr unsigned Ranks = 5; // Rank() is 0 to 4
  unsigned Starts[Ranks + 1] = {};
  for (size_t Id : Ids) {
    unsigned R = Rank(Id);
    assert(R < Ranks);
    Ranked.emplace_back(R, Id);
    ++Starts[R + 1];
  }
  for (unsigned R = 1; R <= Ranks; ++R)
    Starts[R] += Starts[R - 1];
  for (auto [R, Id] : Ranked)
    Ids[Starts[R]++] = Id;
  for (size_t Id : Ids) {
    const PackageCause &N = Causes[Id];
    switch (N.Kind) {
    case solver::CauseKind::Custom:
    case solver::CauseKind::Unavailable:
      Lines.add(*N.Text);
      for (const std::string &H : Prov.hintsFor(*N.Text))
        if (!is_contained(HintsOut, H))
          HintsOut.push_back(H);
      break;
    case solver::CauseKind::NoVersions: {
      const auto &T = N.Terms.front();
      const std::string &Name = *T.Package;
      // A manifest package's versions are its releases: "no version of
      // causal-conv1d matches" restates the reasons given for each one,
      // unless the range itself matches no release.
      if (const Package *Pkg = Prov.package(Name)) {
        VersionSet Want = project(*T.Set, PrebuiltEpoch)
                              .unionWith(project(*T.Set, SourceEpoch));
        if (any_of(Pkg->Releases,
                   [&](const Release &R) { return Want.contains(R.Ver); }))
          break;
        // When other causes ruled its releases out, the range left over
        // ("!=2.3.1,!=2.2.5,...") is no requirement anyone wrote: those
        // causes are the reasons.
        auto RulesOutARelease = [&](size_t Other) {
          return Other != Id &&
                 any_of(Causes[Other].Terms, [&](const auto &OT) {
                   return *OT.Package == Name && OT.Positive &&
                          any_of(Pkg->Releases, [&](const Release &R) {
                            return OT.Set->contains(
                                       R.Ver.withEpoch(SourceEpoch)) ||
                                   OT.Set->contains(
                                       R.Ver.withEpoch(PrebuiltEpoch));
                          });
                 });
        };
        if (any_of(Ids, RulesOutARelease))
          break;
        std::vector<const Release *> Rs;
        for (const Release &R : Pkg->Releases)
          Rs.push_back(&R);
        stable_sort(Rs, [](const Release *A, const Release *B) {
          return B->Ver < A->Ver;
        });
        std::vector<std::string> Names;
        for (const Release *R : Rs)
          Names.push_back(R->VersionText);
        Lines.add(
            formatv("no release of {0} matches {1}; releases: {2}", Name,
                    Style.Set(Want),
                    Names.empty() ? std::string("none") : join(Names, ", "))
                .str());
        break;
      }
      // For the toolkits and compilers, say what the machine has.
      if (Name == NvccPkg || Name == CompilerPkg) {
        Lines.add(Prov.describeCandidates(Name));
        break;
      }
      // An installed distribution is one version: say which.
      if (std::optional<Version> Have = Prov.installedVersion(Name)) {
        Lines.add(formatv("{0} {1} is installed, which is not {2}", Name,
                          Have->str(), Style.Set(*T.Set))
                      .str());
        break;
      }
      Lines.add(
          formatv("no version of {0} matches {1}", Name, Style.Set(*T.Set))
              .str());
      break;
    }
    case solver::CauseKind::Dependency: {
      if (N.Terms.size() != 2 || *N.Terms[0].Package == Root)
        break;
      const std::string &From = *N.Terms[0].Package;
      const std::string &To = *N.Terms[1].Package;
      if (To == NvccPkg || To == CompilerPkg)
        break;
      // An extra stands for its package at the same version: that link is
      // how extras are solved, not a reason.
      if (splitExtra(From).first == To)
        break;
      const VersionSet &Need = *N.Terms[1].Set;
      if (Need.isAny())
        break;
      // The range as the manifest wrote it, not its strategy encoding.
      Lines.addNeed(From, To, Style.PackageSet(To, Need));
      break;
    }
    default:
      break;
    }
  }
  return Lines.take();
}

/// The requirements of a package's releases, and of the manifest packages
/// they name, on things that are neither manifests nor machine facts of their
/// own (Python distributions such as triton and transformers), sorted. One
/// pass over the requirement graph serves every package asked about: its
/// strongly connected components (Tarjan's algorithm, iterative) each get
/// their closure once, from their members' own requirements and the closures
/// of the components they reach, so a registry of thousands of packages
/// costs one walk of its requirements, not one per package.
class DistributionClosure {
public:
  explicit DistributionClosure(const PackageLookup &Lookup) : Lookup(Lookup) {}

  std::vector<std::string> of(const std::string &Name) {
    if (!Lookup(Name))
      return {};
    unsigned Id = intern(Name);
    if (Nodes[Id].Component == Unset)
      visit(Id);
    return Closures[Nodes[Id].Component];
  }

private:
  static constexpr unsigned Unset = ~0u;
  struct Node {
    std::string Name;
    std::vector<unsigned> Edges;  // manifest packages it requires
    std::set<std::string> Direct; // distributions it requires itself
    unsigned Index = Unset, Low = Unset, Component = Unset;
    bool OnStack = false;
  };

  unsigned intern(StringRef Name) {
    auto [It, Inserted] = Ids.try_emplace(Name, unsigned(Nodes.size()));
    if (Inserted) {
      Nodes.emplace_back();
      Nodes.back().Name = Name.str();
    }
    return It->second;
  }

  /// Numbers V and lists what it requires (only manifest packages are
  /// nodes: Lookup succeeded for each one interned).
  void begin(unsigned V) {
    Nodes[V].Index = Nodes[V].Low = Counter++;
    Nodes[V].OnStack = true;
    Stack.push_back(V);
    const Package *Pkg = Lookup(Nodes[V].Name);
    static const std::set<StringRef> Machine = {
        "nvcc",   "gcc",        "clang",  "torch",
        "python", "torch.cuda", "driver", "driver.cuda",
        "compute_capability"};
    // Views of the manifest's own keys: the package outlives this walk.
    std::vector<StringRef> Keys;
    auto Note = [&](const RequirementMap &Reqs) {
      for (const auto &Entry : Reqs)
        Keys.push_back(Entry.first);
    };
    if (!Pkg->Releases.empty())
      Note(Pkg->Requires); // every release's, under its own overrides
    for (const Release &R : Pkg->Releases) {
      Note(R.Requires);
      for (const auto &[Extra, Reqs] : R.Extras)
        Note(Reqs);
      // A package-level extra is used by each release that does not
      // replace it.
      for (const auto &[Extra, Reqs] : Pkg->Extras)
        if (!R.Extras.count(Extra))
          Note(Reqs);
    }
    llvm::sort(Keys);
    Keys.erase(std::unique(Keys.begin(), Keys.end()), Keys.end());
    std::vector<unsigned> Edges;
    std::set<std::string> Direct;
    for (StringRef Key : Keys) {
      if (Lookup(Key))
        Edges.push_back(intern(Key));
      else if (!Machine.count(Key))
        Direct.insert(Key.str());
    }
    Nodes[V].Edges = std::move(Edges);
    Nodes[V].Direct = std::move(Direct);
  }

  void visit(unsigned Start) {
    struct Frame {
      unsigned V;
      size_t Next;
    };
    std::vector<Frame> Calls{{Start, 0}};
    begin(Start);
    while (!Calls.empty()) {
      unsigned V = Calls.back().V;
      if (Calls.back().Next < Nodes[V].Edges.size()) {
        unsigned W = Nodes[V].Edges[Calls.back().Next++];
        if (Nodes[W].Index == Unset) {
          begin(W);
          Calls.push_back({W, 0});
        } else if (Nodes[W].OnStack) {
          Nodes[V].Low = std::min(Nodes[V].Low, Nodes[W].Index);
        }
        continue;
      }
      if (Nodes[V].Low == Nodes[V].Index)
        finishComponent(V);
      Calls.pop_back();
      if (!Calls.empty()) {
        unsigned Parent = Calls.back().V;
        Nodes[Parent].Low = std::min(Nodes[Parent].Low, Nodes[V].Low);
      }
    }
  }

  /// Pops the component rooted at V: every edge of its members leads into
  /// it or into a component already finished.
  void finishComponent(unsigned V) {
    unsigned C = unsigned(Closures.size());
    std::vector<unsigned> Members;
    unsigned W;
    do {
      W = Stack.back();
      Stack.pop_back();
      Nodes[W].OnStack = false;
      Nodes[W].Component = C;
      Members.push_back(W);
    } while (W != V);
    std::set<std::string> Out;
    for (unsigned M : Members) {
      Out.insert(Nodes[M].Direct.begin(), Nodes[M].Direct.end());
      for (unsigned E : Nodes[M].Edges)
        if (Nodes[E].Component != C)
          Out.insert(Closures[Nodes[E].Component].begin(),
                     Closures[Nodes[E].Component].end());
    }
    Closures.emplace_back(Out.begin(), Out.end());
  }

  const PackageLookup &Lookup;
  llvm::StringMap<unsigned> Ids;
  std::vector<Node> Nodes;
  std::vector<unsigned> Stack;
  std::vector<std::vector<std::string>> Closures;
  unsigned Counter = 0;
};

} // namespace

std::vector<std::string> requiredDistributions(const PackageLookup &Lookup,
                                               StringRef Name) {
  return DistributionClosure(Lookup).of(Name.str());
}

namespace {

/// One requirement of a chosen release.
struct ChosenRequirement {
  std::string By;
  const Package *Pkg;
  const Release *Rel;
  const Requirement *Req; // the manifest's own (it outlives the resolve)
};

/// For each package, the requirements the solution's releases put on it, in
/// the solution's order: one pass instead of one per package asked about.
std::map<std::string, std::vector<ChosenRequirement>>
requirementsOnEach(const std::map<std::string, Version> &Sol,
                   const PackageLookup &Lookup) {
  std::map<std::string, std::vector<ChosenRequirement>> Out;
  for (const auto &[Other, OV] : Sol) {
    const Package *OP = Lookup(Other);
    const Release *ORel = OP ? OP->findRelease(OV.withEpoch(0)) : nullptr;
    if (!ORel)
      continue;
    for (const auto &[Key, R] : requirementsOf(*OP, *ORel))
      Out[Key.str()].push_back(ChosenRequirement{Other, OP, ORel, R});
  }
  return Out;
}

} // namespace

Expected<Resolution> resolve(const ResolveRequest &Request,
                             const PackageLookup &Lookup, const Facts &F,
                             const KnowledgeBase &KB,
                             const PackageExists &Exists) {
  Resolution Res;
  // Targets: declared, else the GPUs found.
  if (!Request.TargetArchs.empty()) {
    Res.TargetArchs = Request.TargetArchs;
    Res.TargetOrigin = Request.TargetOrigin;
  } else {
    for (const GpuFacts &G : F.Gpus)
      if (!is_contained(Res.TargetArchs, G.smArch()))
        Res.TargetArchs.push_back(G.smArch());
    if (!Res.TargetArchs.empty())
      Res.TargetOrigin = "GPUs found";
  }
  for (const CompilerFacts &C : F.Compilers)
    if (C.NvccDefault && !Res.NvccDefaultCompiler)
      Res.NvccDefaultCompiler = C;
  // One sorted list (sm_80 before sm_100, sm_90 before sm_90a), so ranges,
  // archs and messages do not depend on the order GPUs or flags came in.
  auto ArchKey = [](const std::string &A) {
    return std::make_pair(Arch{A, {}}.number(), A);
  };
  stable_sort(Res.TargetArchs, [&](const std::string &A, const std::string &B) {
    return ArchKey(A) < ArchKey(B);
  });
  Res.TargetArchs.erase(std::unique(Res.TargetArchs.begin(),
                                    Res.TargetArchs.end()),
                        Res.TargetArchs.end());

  auto Try = [&](RequirementMap Reqs) {
    return solveAttempt(Request, std::move(Reqs), Lookup, Exists, F, KB,
                        Res.TargetArchs);
  };
  const PackageReportStyle Style = reportStyle(Lookup);
  auto ExplainResult = [&](const PackageSolveResult &R,
                           const FactProvider &Prov, PackageResolution &PR) {
    PR.Because = reasonsOf(causesOf(*R.Failure), Prov, Request.RootName, Style,
                           PR.Hints);
    if (PR.Name == Request.DerivationOf)
      PR.Derivation = explainFailure(*R.Failure, Style);
  };
  auto Explain = [&](const Attempt &A, PackageResolution &PR) {
    ExplainResult(A.Result, *A.Prov, PR);
  };

  // Which requested packages cannot be had on their own?
  std::vector<PackageResolution> Failed;
  Attempt Full = Try(Request.Requires);
  if (!Full.Result.solved()) {
    RequirementMap Kept;
    for (const auto &[Key, R] : Request.Requires) {
      Attempt Alone = Try(RequirementMap{{Key, R}});
      if (Alone.Result.solved()) {
        Kept.emplace(Key, R);
        continue;
      }
      PackageResolution PR;
      PR.Name = Key;
      PR.Requested = true;
      Explain(Alone, PR);
      const Package *Pkg = Lookup(Key);
      if (Pkg && !Pkg->Fallbacks.empty() && !Request.NoFallback) {
        const Fallback &FB = Pkg->Fallbacks.front();
        PR.How = Strategy::Fallback;
        ChosenFallback CF{FB.Name, FB.Summary, FB.Impact, {}};
        for (const auto &[K, V] : FB.Env)
          CF.Env.emplace_back(K, V.Value);
        PR.Fallback = std::move(CF);
      } else {
        PR.How = Strategy::Unsatisfiable;
        if (Pkg && !Pkg->Fallbacks.empty())
          PR.Hints.push_back("a fallback is declared (" +
                             Pkg->Fallbacks.front().Name +
                             "); it was not used because of --no-fallback");
      }
      Failed.push_back(std::move(PR));
    }
    // Packages that work alone but not together are unsatisfiable as a set
    // (when every one works alone, that set is the problem already solved).
    Attempt Rest =
        Kept.size() == Request.Requires.size() ? std::move(Full) : Try(Kept);
    if (!Rest.Result.solved()) {
      for (const auto &[Key, R] : Kept) {
        PackageResolution PR;
        PR.Name = Key;
        PR.Requested = true;
        PR.How = Strategy::Unsatisfiable;
        Explain(Rest, PR);
        Failed.push_back(std::move(PR));
      }
    }
    Full = std::move(Rest);
  }

  if (Full.Result.solved()) {
    const FactProvider *FullProv = Full.Prov.get();
    // Built on first use: what the chosen releases require of each package.
    std::optional<std::map<std::string, std::vector<ChosenRequirement>>>
        RequiredBy;
    const auto &Sol = *Full.Result.Solution;
    Res.Packages.reserve(Sol.size() + Failed.size());
    for (const auto &[Name, V] : Sol) {
      const Package *Pkg = Lookup(Name);
      if (!Pkg || Name == Request.RootName)
        continue;
      const Release *Rel = Pkg->findRelease(V.withEpoch(0));
      if (!Rel)
        continue;
      PackageResolution PR;
      PR.Name = Name;
      PR.Requested = Request.Requires.count(Name) != 0;
      PR.Ver = Rel->Ver;
      bool Compiles = Pkg->Kind != BuildKind::Python;
      if (V.epoch() == PrebuiltEpoch) {
        PR.How = Strategy::Prebuilt;
        PR.PrebuiltUrl = FullProv->prebuiltUrl(*Pkg, *Rel);
      } else if (!Compiles) {
        PR.How = Strategy::NoBuild;
      } else {
        PR.How = Strategy::Source;
        auto N = Sol.find(NvccPkg.str());
        auto C = Sol.find(CompilerPkg.str());
        if (N != Sol.end())
          if (const NvccFacts *T = FullProv->toolkit(N->second))
            PR.Nvcc = *T;
        if (C != Sol.end())
          if (const CompilerFacts *CF = FullProv->compiler(C->second))
            PR.Compiler = *CF;
        PR.Archs = FullProv->archsFor(*Rel, PR.Nvcc ? &*PR.Nvcc : nullptr);
        // A release without an arch list is not "every arch": say what is
        // assumed.
        if (Rel->Archs.empty()) {
          PR.ArchsUnknown = Res.TargetArchs.empty();
          Res.Warnings.push_back(
              PR.ArchsUnknown
                  ? Name + " " + Rel->VersionText +
                        " lists no archs and no targets were declared: its "
                        "build chooses the archs (declare targets with --arch "
                        "sm_XX or [target] archs)"
                  : Name + " " + Rel->VersionText +
                        " lists no archs: assuming it compiles the targets (" +
                        join(Res.TargetArchs, " ") + ")");
        }
        // Why the other toolkits and compilers were not chosen.
        for (const auto &SF : FullProv->allFacts()) {
          const TermT *PkgTerm = nullptr;
          const TermT *NvccTerm = nullptr;
          const TermT *CompTerm = nullptr;
          for (const auto &[TP, T] : SF.Terms) {
            if (TP == Name)
              PkgTerm = &T;
            else if (TP == NvccPkg)
              NvccTerm = &T;
            else if (TP == CompilerPkg)
              CompTerm = &T;
          }
          if (PkgTerm && !PkgTerm->set().contains(V))
            continue;
          for (const NvccFacts *T : FullProv->toolkits()) {
            if (PR.Nvcc && T->Ver == PR.Nvcc->Ver)
              continue;
            bool Excluded = false;
            if (NvccTerm && !CompTerm)
              Excluded = NvccTerm->isPositive()
                             ? NvccTerm->set().contains(T->Ver)
                             : !NvccTerm->set().contains(T->Ver);
            if (Excluded)
              addNotChosen(PR.NotChosen,
                           "nvcc " + T->Ver.str() + " (" + T->Path + ")",
                           SF.Text);
          }
          if (NvccTerm && CompTerm && PR.Nvcc &&
              NvccTerm->set().contains(PR.Nvcc->Ver)) {
            for (const auto &[CV, CF] : FullProv->compilers()) {
              if (PR.Compiler && CF->Path == PR.Compiler->Path)
                continue;
              // nvcc's limits name the compilers allowed (a negative
              // term), torch's table each compiler it rejects (positive).
              bool Rejected = CompTerm->isPositive()
                                  ? CompTerm->set().contains(CV)
                                  : !CompTerm->set().contains(CV);
              if (Rejected)
                addNotChosen(PR.NotChosen, CF->label(), SF.Text);
            }
          }
        }
      }
      // The user's explicit compiler choice is honoured, or said not to be:
      // each choice stronger than the compiler used, with what was used.
      if (PR.How == Strategy::Source)
        for (const auto &[CV, CF] : FullProv->compilers()) {
          if (CF->ChosenBy.empty() ||
              (PR.Compiler && CF->Path == PR.Compiler->Path))
            break;
          std::string Head = CF->label() + " not used: ";
          auto It = find_if(PR.NotChosen, [&](const std::string &L) {
            return StringRef(L).startswith(Head);
          });
          if (It == PR.NotChosen.end())
            It = PR.NotChosen.insert(
                PR.NotChosen.end(),
                Head + "no buildable configuration of " + Name + " uses it");
          if (PR.Compiler)
            *It += "; using " + PR.Compiler->label() + " instead";
          // The explicit choice comes first among the lines.
          std::rotate(PR.NotChosen.begin(), It, It + 1);
        }
      // Not the newest release from source: say why.
      const Release *Newest = nullptr;
      if (!Pkg->Releases.empty()) {
        size_t N = 0; // by versions alone: only the newest is read
        for (size_t I = 1; I < Pkg->Releases.size(); ++I)
          if (Pkg->Releases.version(N) < Pkg->Releases.version(I))
            N = I;
        Newest = &Pkg->Releases[N];
      }
      bool Preferred = Newest == Rel && V.epoch() == SourceEpoch;
      // A package another chosen release pins below its newest (fla 0.5.0
      // needs fla-core ==0.5.0) is older because of that release, whose
      // own line says why; that pin is the reason.
      std::string PinnedBy, Parent;
      if (!Preferred && Newest && !PR.Requested) {
        if (!RequiredBy)
          RequiredBy = requirementsOnEach(Sol, Lookup);
        auto On = RequiredBy->find(Name);
        if (On != RequiredBy->end())
          for (const ChosenRequirement &C : On->second) {
            if (C.By == Name || C.Req->Range.contains(Newest->Ver))
              continue;
            PinnedBy = C.Pkg->Name + " " + C.Rel->VersionText + " needs " +
                       Name + " " + C.Req->Text;
            Parent = C.Pkg->Name;
            break;
          }
      }
      if (!PinnedBy.empty()) {
        PR.Because = {PinnedBy};
        PR.NotPreferred = Name + " " + Newest->VersionText +
                          (Compiles ? " from source" : "");
        PR.Derivation = "Because " + PinnedBy + ", " + PR.NotPreferred +
                        " is not used; the derivation of " + Parent +
                        " says why that release of it was chosen.";
      } else if (!Preferred && Newest) {
        // Ask the solver whether a solution has the newest release's source
        // build (within the project's range): its failure is the reason.
        VersionSet Want = VersionSet::exactly(Newest->Ver.withEpoch(SourceEpoch));
        auto Req = Full.Req->Requires.find(Name);
        if (Req != Full.Req->Requires.end())
          Want = Want.intersect(
              FullProv->mapRequirement(Name, Req->second.Range).second);
        // Its causes read where the solver keeps them, unless its whole
        // derivation is asked for.
        auto Read = [&](ArrayRef<PackageCause> Causes) {
          PR.Because =
              reasonsOf(Causes, *FullProv, Request.RootName, Style, PR.Hints);
        };
        PackageSolveResult Why = Full.Solver->query(
            Name, Want, WhyNotDecisions, /*WithSolution=*/false,
            Name == Request.DerivationOf ? solver::FailureDetail::Whole
                                         : solver::FailureDetail::Externals,
            Read);
        if (Why.Failure)
          ExplainResult(Why, *FullProv, PR);
        if (Why.Failure || Why.CausesVisited)
          PR.NotPreferred = Name + " " + Newest->VersionText +
                            (Compiles ? " from source" : "");
      }
      Res.Packages.push_back(std::move(PR));
    }
  }
  for (PackageResolution &PR : Failed)
    Res.Packages.push_back(std::move(PR));
  // Requested packages first, in the project's order (where each is
  // written), then transitive ones by name. Each package's place is found
  // once and the packages moved once (a large solve has thousands).
  using Place = std::tuple<unsigned, unsigned, unsigned, StringRef, size_t>;
  std::vector<Place> Order;
  Order.reserve(Res.Packages.size());
  for (size_t I = 0; I < Res.Packages.size(); ++I) {
    const std::string &Name = Res.Packages[I].Name;
    auto It = Request.Requires.find(Name);
    if (It == Request.Requires.end())
      Order.emplace_back(1u, 0u, 0u, Name, I);
    else
      Order.emplace_back(0u, It->second.Loc.Line, It->second.Loc.Column,
                         StringRef(), I);
  }
  llvm::sort(Order); // the index last: equal places keep their order
  std::vector<PackageResolution> Sorted;
  Sorted.reserve(Order.size());
  for (const Place &P : Order)
    Sorted.push_back(std::move(Res.Packages[std::get<4>(P)]));
  Res.Packages = std::move(Sorted);

  Res.Status = ResolveStatus::Resolved;
  for (const PackageResolution &PR : Res.Packages) {
    if (PR.How == Strategy::Unsatisfiable)
      Res.Status = ResolveStatus::Unsatisfiable;
    else if (PR.How == Strategy::Fallback &&
             Res.Status == ResolveStatus::Resolved)
      Res.Status = ResolveStatus::Fallback;
  }
  if (Res.TargetArchs.empty() &&
      any_of(Res.Packages, [](const PackageResolution &P) {
        return P.How == Strategy::Source && !P.ArchsUnknown;
      }))
    Res.Warnings.insert(Res.Warnings.begin(),
        "no GPU was found and no target archs were declared: building for "
        "every arch the release lists and nvcc supports (declare targets with "
        "--arch sm_XX or [target] archs)");
  Res.SolveState = std::make_shared<Attempt>(std::move(Full));
  return Res;
}

} // namespace cudadeps
