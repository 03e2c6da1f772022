//===- DerivationTree.h - why version solving failed ----------------------===//
//
// The incompatibilities that prove "no solution": the final one (about the
// root package alone) and, transitively, the two causes of every derived one.
// It is a DAG: an incompatibility used by two derivations is stored once, so
// the reporter can number it and refer back to it.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_SOLVER_DERIVATIONTREE_H
#define CUDADEPS_CORE_SOLVER_DERIVATIONTREE_H

#include "core/solver/Incompatibility.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <cassert>
#include <cstdint>
#include <string>
#include <vector>

namespace cudadeps::solver {

template <class P, class VS> struct DerivationTree {
  /// Each node is an incompatibility; for a derived one, Cause1 and Cause2
  /// are indices into Nodes.
  using Node = Incompatibility<P, VS>;

  std::vector<Node> Nodes;
  /// Index of the final incompatibility.
  IncompId Top = 0;
  /// The root package of the solve.
  P RootPackage;
  /// True where Nodes are the proof's external incompatibilities alone, in
  /// the order externals() gives them: no derived node and no Top (what a
  /// caller that reads only the external causes asks for). Such a tree
  /// says why, but cannot be written out step by step.
  bool ExternalsOnly = false;

  const Node &top() const {
    assert(!ExternalsOnly && "a tree of the external causes has no top");
    return Nodes[Top];
  }
  const Node &operator[](IncompId Id) const { return Nodes[Id]; }

  /// The external incompatibilities the proof rests on, each once, in the
  /// order a depth-first walk (cause 1 before cause 2) meets them.
  std::vector<IncompId> externals() const {
    std::vector<IncompId> Out;
    if (ExternalsOnly) {
      for (IncompId Id = 0; Id < Nodes.size(); ++Id)
        Out.push_back(Id);
      return Out;
    }
    std::vector<bool> Seen(Nodes.size(), false);
    collect(Top, Seen, Out);
    return Out;
  }

  /// Copies the part of Store reachable from Final into a tree.
  static DerivationTree build(const std::vector<Node> &Store, IncompId Final,
                              const P &Root) {
    return build(Final, Root, [&](IncompId Id) { return Store[Id]; });
  }

  /// The tree of the incompatibilities reachable from Final, each made once
  /// by Make(Id) (a node whose causes are still ids of its owner's store).
  /// \p Expected: how many nodes the caller expects (0: unknown), room made
  /// for them at once rather than by doubling.
  template <class MakeF>
  static DerivationTree build(IncompId Final, const P &Root, MakeF Make,
                              size_t Expected = 0) {
    DerivationTree T;
    T.RootPackage = Root;
    // By id widened to 64 bits: every 32-bit id (a proof step's high bit
    // set included) is a key, none DenseMap's empty or tombstone one. A
    // query's proof has thousands of nodes: a probe each, not a tree node.
    llvm::DenseMap<uint64_t, IncompId> Mapped;
    if (Expected) {
      T.Nodes.reserve(Expected);
      Mapped.reserve(Expected);
    }
    T.Top = T.copy(Final, Mapped, Make);
    return T;
  }

private:
  template <class MakeF>
  IncompId copy(IncompId Id, llvm::DenseMap<uint64_t, IncompId> &Mapped,
                MakeF &Make) {
    auto It = Mapped.find(Id);
    if (It != Mapped.end())
      return It->second;
    Node N = Make(Id);
    if (N.Kind == CauseKind::Derived) {
      N.Cause1 = copy(N.Cause1, Mapped, Make);
      N.Cause2 = copy(N.Cause2, Mapped, Make);
    }
    IncompId New = Nodes.size();
    Nodes.push_back(std::move(N));
    Mapped.try_emplace(Id, New);
    return New;
  }

  void collect(IncompId Id, std::vector<bool> &Seen,
               std::vector<IncompId> &Out) const {
    if (Seen[Id])
      return;
    Seen[Id] = true;
    const Node &N = Nodes[Id];
    if (N.Kind != CauseKind::Derived) {
      Out.push_back(Id);
      return;
    }
    collect(N.Cause1, Seen, Out);
    collect(N.Cause2, Seen, Out);
  }
};

/// An external incompatibility read where it is kept, not copied: its kind,
/// its text and its terms by reference, valid while what holds them is
/// unchanged (a DerivationTree's node, or the solver's store during
/// Solver::query()'s call of a visitor).
template <class P, class VS> struct CauseView {
  struct TermView {
    const P *Package;
    const VS *Set;
    bool Positive;
  };
  CauseKind Kind = CauseKind::Custom;
  const std::string *Text = nullptr;
  llvm::SmallVector<TermView, 2> Terms;

  /// Reads I (made in place: a view is its terms' room too).
  void read(const Incompatibility<P, VS> &I) {
    Kind = I.Kind;
    Text = &I.Text;
    Terms.clear();
    Terms.reserve(I.Terms.size());
    for (const auto &[Package, Term] : I.Terms)
      Terms.push_back({&Package, &Term.set(), Term.isPositive()});
  }
};

/// The external causes of Tree, in externals()' order, read in place.
template <class P, class VS>
std::vector<CauseView<P, VS>> causesOf(const DerivationTree<P, VS> &Tree) {
  std::vector<IncompId> Ids = Tree.externals();
  std::vector<CauseView<P, VS>> Out;
  Out.reserve(Ids.size());
  for (IncompId Id : Ids)
    Out.emplace_back().read(Tree[Id]);
  return Out;
}

} // namespace cudadeps::solver

#endif
