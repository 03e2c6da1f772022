//===- Reporter.h - a derivation tree as prose ----------------------------===//
//
// Turns the proof of a failed solve into the explanation dart-lang/pub
// prints (doc/solver.md, "Error Reporting"):
//
//     Because every version of foo depends on bar ^2.0.0 which depends on
//     baz ^3.0.0, every version of foo requires baz ^3.0.0.
//     So, because root depends on both baz ^1.0.0 and foo ^1.0.0, version
//     solving failed.
//
// Lines that are referred to later get a number, "(1) ", and every other
// line is indented to match. How packages, version sets and external facts
// are worded is up to the caller (ReportStyle).
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_SOLVER_REPORTER_H
#define CUDADEPS_CORE_SOLVER_REPORTER_H

#include "core/solver/DerivationTree.h"

#include <cassert>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cudadeps::solver {

template <class P, class VS> struct ReportStyle {
  using Node = Incompatibility<P, VS>;
  /// A package's name.
  std::function<std::string(const P &)> Package;
  /// A version set; the whole set should read "any" (giving "foo any").
  std::function<std::string(const VS &)> Set;
  /// Optional: a package's version set, when the wording depends on the
  /// package (takes precedence over Set for "foo <set>" phrases).
  std::function<std::string(const P &, const VS &)> PackageSet;
  /// The wording of a Custom or Unavailable incompatibility. When unset (or
  /// when it returns ""), a Custom fact reads as its Text and an
  /// unavailable version as "foo 1.0.0 is unavailable (Text)".
  std::function<std::string(const Node &)> External;
  /// Optional: the wording of "no versions of foo match <set>" (when unset
  /// or "", that sentence; a set worded "other than 1.0, 2.0" reads "foo
  /// has no versions other than 1.0, 2.0").
  std::function<std::string(const P &, const VS &)> NoVersions;
};

template <class P, class VS> class Reporter {
public:
  using Tree = DerivationTree<P, VS>;
  using Node = Incompatibility<P, VS>;
  using TermT = Term<VS>;
  using Entry = typename Node::Entry;

  /// T must be the whole proof (not T.ExternalsOnly).
  Reporter(const Tree &T, const ReportStyle<P, VS> &Style)
      : T(T), Style(Style) {
    assert(!T.ExternalsOnly && "a report writes every derivation");
  }

  /// The whole explanation, lines separated by '\n', no final newline.
  std::string write() {
    countDerivations(T.Top);
    if (T.top().Kind == CauseKind::Derived)
      visit(T.Top, /*Conclusion=*/false);
    else
      addLine(T.Top, "Because " + str(T.top()) + ", version solving failed.",
              false);

    size_t Padding = 0;
    if (!LineNumbers.empty())
      Padding = ("(" + std::to_string(LineNumbers.size()) + ") ").size();
    std::string Out;
    bool LastWasEmpty = false;
    bool First = true;
    for (const auto &[Message, Number] : Lines) {
      if (Message.empty()) {
        if (!LastWasEmpty)
          Out += "\n";
        LastWasEmpty = true;
        continue;
      }
      LastWasEmpty = false;
      if (!First)
        Out += "\n";
      First = false;
      std::string Prefix;
      if (Number) {
        Prefix = "(" + std::to_string(*Number) + ")";
        Prefix.resize(std::max(Prefix.size(), Padding), ' ');
      } else {
        Prefix.assign(Padding, ' ');
      }
      Out += Prefix + Message;
    }
    return Out;
  }

  /// One incompatibility in words ("foo ^1.0.0 depends on bar any").
  std::string str(const Node &I) const {
    switch (I.Kind) {
    case CauseKind::Dependency:
      if (I.Terms.size() == 2)
        return terse(I.Terms[0], true) + " depends on " + terse(I.Terms[1]);
      break;
    case CauseKind::NoVersions: {
      const Entry &E = I.Terms.front();
      if (Style.NoVersions) {
        std::string S = Style.NoVersions(E.first, E.second.set());
        if (!S.empty())
          return S;
      }
      std::string S = set(E);
      if (S.rfind("other than ", 0) == 0)
        return ref(E) + " has no versions " + S;
      return "no versions of " + ref(E) + " match " + S;
    }
    case CauseKind::Unavailable:
    case CauseKind::Custom:
      return external(I);
    case CauseKind::Root:
      return ref(I.Terms.front()) + " is " +
             set(I.Terms.front());
    case CauseKind::Derived:
      break;
    }
    if (I.isFailure(T.RootPackage))
      return "version solving failed";

    if (I.Terms.size() == 1) {
      const Entry &E = I.Terms.front();
      std::string Subject = E.second.set().isAny() ? ref(E) : terse(E);
      return Subject + " is " +
             (E.second.isPositive() ? "forbidden" : "required");
    }
    if (I.Terms.size() == 2) {
      const Entry &A = I.Terms[0];
      const Entry &B = I.Terms[1];
      if (A.second.isPositive() == B.second.isPositive()) {
        if (A.second.isPositive())
          return (A.second.set().isAny() ? ref(A) : terse(A)) +
                 " is incompatible with " +
                 (B.second.set().isAny() ? ref(B) : terse(B));
        return "either " + terse(A) + " or " + terse(B);
      }
    }
    std::vector<std::string> Positive, Negative;
    const Entry *FirstPositive = nullptr;
    for (const Entry &E : I.Terms) {
      if (E.second.isPositive()) {
        Positive.push_back(terse(E));
        if (!FirstPositive)
          FirstPositive = &E;
      } else {
        Negative.push_back(terse(E));
      }
    }
    if (!Positive.empty() && !Negative.empty()) {
      if (Positive.size() == 1)
        return terse(*FirstPositive, true) + " requires " +
               join(Negative, " or ");
      return "if " + join(Positive, " and ") + " then " +
             join(Negative, " or ");
    }
    if (!Positive.empty())
      return "one of " + join(Positive, " or ") + " must be false";
    return "one of " + join(Negative, " or ") + " must be true";
  }

private:
  using Line = std::optional<unsigned>;

  const Node &node(IncompId Id) const { return T[Id]; }
  bool derived(IncompId Id) const {
    return node(Id).Kind == CauseKind::Derived;
  }

  void countDerivations(IncompId Id) {
    auto It = Derivations.find(Id);
    if (It != Derivations.end()) {
      ++It->second;
      return;
    }
    if (derived(Id)) {
      countDerivations(node(Id).Cause1);
      countDerivations(node(Id).Cause2);
    }
    Derivations[Id] = 1;
  }

  void addLine(IncompId Id, std::string Message, bool Numbered) {
    if (Numbered) {
      unsigned Number = LineNumbers.size() + 1;
      LineNumbers[Id] = Number;
      Lines.emplace_back(std::move(Message), Number);
    } else {
      Lines.emplace_back(std::move(Message), std::nullopt);
    }
  }

  Line lineOf(IncompId Id) const {
    auto It = LineNumbers.find(Id);
    if (It == LineNumbers.end())
      return std::nullopt;
    return It->second;
  }

  static std::string lineRef(unsigned N) {
    return "(" + std::to_string(N) + ")";
  }

  bool isSingleLine(IncompId Id) const {
    return !derived(node(Id).Cause1) && !derived(node(Id).Cause2);
  }

  bool isCollapsible(IncompId Id) const {
    if (Derivations.at(Id) > 1)
      return false;
    const Node &N = node(Id);
    bool D1 = derived(N.Cause1), D2 = derived(N.Cause2);
    if (D1 == D2)
      return false;
    IncompId Complex = D1 ? N.Cause1 : N.Cause2;
    return !LineNumbers.count(Complex);
  }

  void visit(IncompId Id, bool Conclusion) {
    bool Numbered = Conclusion || Derivations.at(Id) > 1;
    std::string Conjunction = (Conclusion || Id == T.Top) ? "So," : "And";
    std::string Text = str(node(Id));
    IncompId Conflict = node(Id).Cause1;
    IncompId Other = node(Id).Cause2;

    if (derived(Conflict) && derived(Other)) {
      Line ConflictLine = lineOf(Conflict);
      Line OtherLine = lineOf(Other);
      if (ConflictLine && OtherLine) {
        addLine(Id,
                "Because " +
                    andStr(node(Conflict), node(Other), ConflictLine,
                           OtherLine) +
                    ", " + Text + ".",
                Numbered);
      } else if (ConflictLine || OtherLine) {
        IncompId WithLine = ConflictLine ? Conflict : Other;
        IncompId WithoutLine = ConflictLine ? Other : Conflict;
        unsigned N = ConflictLine ? *ConflictLine : *OtherLine;
        visit(WithoutLine, false);
        addLine(Id,
                Conjunction + " because " + str(node(WithLine)) + " " +
                    lineRef(N) + ", " + Text + ".",
                Numbered);
      } else {
        bool SingleLineConflict = isSingleLine(Conflict);
        bool SingleLineOther = isSingleLine(Other);
        if (SingleLineOther || SingleLineConflict) {
          IncompId First = SingleLineOther ? Conflict : Other;
          IncompId Second = SingleLineOther ? Other : Conflict;
          visit(First, false);
          visit(Second, false);
          addLine(Id, "Thus, " + Text + ".", Numbered);
        } else {
          visit(Conflict, /*Conclusion=*/true);
          Lines.emplace_back("", std::nullopt);
          visit(Other, false);
          addLine(Id,
                  Conjunction + " because " + str(node(Conflict)) + " " +
                      lineRef(LineNumbers.at(Conflict)) + ", " + Text + ".",
                  Numbered);
        }
      }
      return;
    }

    if (derived(Conflict) || derived(Other)) {
      IncompId Derived = derived(Conflict) ? Conflict : Other;
      IncompId Ext = derived(Conflict) ? Other : Conflict;
      Line DerivedLine = lineOf(Derived);
      if (DerivedLine) {
        addLine(Id,
                "Because " +
                    andStr(node(Ext), node(Derived), std::nullopt,
                           DerivedLine) +
                    ", " + Text + ".",
                Numbered);
      } else if (isCollapsible(Derived)) {
        const Node &D = node(Derived);
        IncompId CollapsedDerived = derived(D.Cause1) ? D.Cause1 : D.Cause2;
        IncompId CollapsedExt = derived(D.Cause1) ? D.Cause2 : D.Cause1;
        visit(CollapsedDerived, false);
        addLine(Id,
                Conjunction + " because " +
                    andStr(node(CollapsedExt), node(Ext), std::nullopt,
                           std::nullopt) +
                    ", " + Text + ".",
                Numbered);
      } else {
        visit(Derived, false);
        addLine(Id,
                Conjunction + " because " + str(node(Ext)) + ", " + Text +
                    ".",
                Numbered);
      }
      return;
    }

    addLine(Id,
            "Because " +
                andStr(node(Conflict), node(Other), std::nullopt,
                       std::nullopt) +
                ", " + Text + ".",
            Numbered);
  }

  // --- "X and Y", with pub's special phrasings ---------------------------

  std::string andStr(const Node &A, const Node &B, Line ALine,
                     Line BLine) const {
    bool Plain = A.Kind == CauseKind::Custom || B.Kind == CauseKind::Custom ||
                 A.Kind == CauseKind::Unavailable ||
                 B.Kind == CauseKind::Unavailable;
    if (auto S = bothUnavailable(A, B, ALine, BLine))
      return *S;
    if (!Plain) {
      if (auto S = requiresBoth(A, B, ALine, BLine))
        return *S;
      if (auto S = requiresThrough(A, B, ALine, BLine))
        return *S;
      if (auto S = requiresForbidden(A, B, ALine, BLine))
        return *S;
    }
    std::string Out = str(A);
    if (ALine)
      Out += " " + lineRef(*ALine);
    Out += " and " + str(B);
    if (BLine)
      Out += " " + lineRef(*BLine);
    return Out;
  }

  /// Two versions of one package unavailable for one reason: the reason
  /// once ("foo 1.0 and 2.0 are unavailable (no wheel)").
  std::optional<std::string> bothUnavailable(const Node &A, const Node &B,
                                             Line ALine, Line BLine) const {
    if (Style.External || ALine || BLine ||
        A.Kind != CauseKind::Unavailable || B.Kind != CauseKind::Unavailable ||
        A.Terms.empty() || B.Terms.empty() || A.Text != B.Text ||
        !(A.Terms.front().first == B.Terms.front().first))
      return std::nullopt;
    return terse(A.Terms.front()) + " and " + set(B.Terms.front()) +
           " are unavailable" +
           (A.Text.empty() ? std::string() : " (" + A.Text + ")");
  }

  static const Entry *single(const Node &I, bool Positive) {
    const Entry *Found = nullptr;
    for (const Entry &E : I.Terms) {
      if (E.second.isPositive() != Positive)
        continue;
      if (Found)
        return nullptr;
      Found = &E;
    }
    return Found;
  }

  std::string negatives(const Node &I) const {
    std::vector<std::string> Parts;
    for (const Entry &E : I.Terms)
      if (!E.second.isPositive())
        Parts.push_back(terse(E));
    return join(Parts, " or ");
  }

  std::optional<std::string> requiresBoth(const Node &A, const Node &B,
                                          Line ALine, Line BLine) const {
    if (A.Terms.size() == 1 || B.Terms.size() == 1)
      return std::nullopt;
    const Entry *APos = single(A, true);
    const Entry *BPos = single(B, true);
    if (!APos || !BPos)
      return std::nullopt;
    if (!(APos->first == BPos->first) ||
        !(APos->second.set() == BPos->second.set()))
      return std::nullopt;
    bool IsDependency = A.Kind == CauseKind::Dependency &&
                        B.Kind == CauseKind::Dependency;
    std::string Out = terse(*APos, true) + " " +
                      (IsDependency ? "depends on" : "requires") + " both " +
                      negatives(A);
    if (ALine)
      Out += " " + lineRef(*ALine);
    Out += " and " + negatives(B);
    if (BLine)
      Out += " " + lineRef(*BLine);
    return Out;
  }

  std::optional<std::string> requiresThrough(const Node &A, const Node &B,
                                             Line ALine, Line BLine) const {
    if (A.Terms.size() == 1 || B.Terms.size() == 1)
      return std::nullopt;
    const Entry *ANeg = single(A, false);
    const Entry *BNeg = single(B, false);
    if (!ANeg && !BNeg)
      return std::nullopt;
    const Entry *APos = single(A, true);
    const Entry *BPos = single(B, true);

    const Node *Prior, *Latter;
    const Entry *PriorNegative;
    Line PriorLine, LatterLine;
    if (ANeg && BPos && ANeg->first == BPos->first &&
        ANeg->second.inverse().satisfies(BPos->second)) {
      Prior = &A;
      PriorNegative = ANeg;
      PriorLine = ALine;
      Latter = &B;
      LatterLine = BLine;
    } else if (BNeg && APos && BNeg->first == APos->first &&
               BNeg->second.inverse().satisfies(APos->second)) {
      Prior = &B;
      PriorNegative = BNeg;
      PriorLine = BLine;
      Latter = &A;
      LatterLine = ALine;
    } else {
      return std::nullopt;
    }

    std::vector<const Entry *> PriorPositives;
    for (const Entry &E : Prior->Terms)
      if (E.second.isPositive())
        PriorPositives.push_back(&E);
    if (PriorPositives.empty())
      return std::nullopt;

    std::string Out;
    if (PriorPositives.size() > 1) {
      std::vector<std::string> Parts;
      for (const Entry *E : PriorPositives)
        Parts.push_back(terse(*E));
      Out += "if " + join(Parts, " or ") + " then ";
    } else {
      Out += terse(*PriorPositives.front(), true) + " " +
             (Prior->Kind == CauseKind::Dependency ? "depends on"
                                                   : "requires") +
             " ";
    }
    Out += terse(*PriorNegative);
    if (PriorLine)
      Out += " " + lineRef(*PriorLine);
    Out += " which ";
    Out += Latter->Kind == CauseKind::Dependency ? "depends on " : "requires ";
    Out += negatives(*Latter);
    if (LatterLine)
      Out += " " + lineRef(*LatterLine);
    return Out;
  }

  std::optional<std::string> requiresForbidden(const Node &A, const Node &B,
                                               Line ALine,
                                               Line BLine) const {
    if (A.Terms.size() != 1 && B.Terms.size() != 1)
      return std::nullopt;
    bool ASingle = A.Terms.size() == 1;
    const Node &Prior = ASingle ? B : A;
    const Node &Latter = ASingle ? A : B;
    Line PriorLine = ASingle ? BLine : ALine;
    Line LatterLine = ASingle ? ALine : BLine;

    const Entry *Negative = single(Prior, false);
    if (!Negative)
      return std::nullopt;
    if (!Negative->second.inverse().satisfies(Latter.Terms.front().second) ||
        !(Negative->first == Latter.Terms.front().first))
      return std::nullopt;

    std::vector<const Entry *> Positives;
    for (const Entry &E : Prior.Terms)
      if (E.second.isPositive())
        Positives.push_back(&E);
    if (Positives.empty())
      return std::nullopt;

    std::string Out;
    if (Positives.size() > 1) {
      std::vector<std::string> Parts;
      for (const Entry *E : Positives)
        Parts.push_back(terse(*E));
      Out += "if " + join(Parts, " or ") + " then ";
    } else {
      Out += terse(*Positives.front(), true);
      Out += Prior.Kind == CauseKind::Dependency ? " depends on "
                                                 : " requires ";
    }
    Out += terse(Latter.Terms.front()) + " ";
    if (PriorLine)
      Out += lineRef(*PriorLine) + " ";
    if (Latter.Kind == CauseKind::NoVersions)
      Out += "which doesn't match any versions";
    else
      Out += "which is forbidden";
    if (LatterLine)
      Out += " " + lineRef(*LatterLine);
    return Out;
  }

  // --- terms ---------------------------------------------------------------

  std::string ref(const Entry &E) const { return Style.Package(E.first); }

  /// "foo ^1.0.0", "foo any", the root's bare name, or with AllowEvery
  /// "every version of foo" for the whole set.
  std::string terse(const Entry &E, bool AllowEvery = false) const {
    if (E.first == T.RootPackage)
      return ref(E);
    if (AllowEvery && E.second.set().isAny())
      return "every version of " + ref(E);
    return ref(E) + " " + set(E);
  }

  std::string set(const Entry &E) const {
    if (Style.PackageSet)
      return Style.PackageSet(E.first, E.second.set());
    return Style.Set(E.second.set());
  }

  std::string external(const Node &I) const {
    if (Style.External) {
      std::string S = Style.External(I);
      if (!S.empty())
        return S;
    }
    if (I.Kind == CauseKind::Unavailable && !I.Terms.empty())
      return terse(I.Terms.front()) + " is unavailable" +
             (I.Text.empty() ? std::string() : " (" + I.Text + ")");
    return I.Text;
  }

  static std::string join(const std::vector<std::string> &Parts,
                          const std::string &Sep) {
    std::string Out;
    for (size_t K = 0; K < Parts.size(); ++K)
      Out += (K ? Sep : std::string()) + Parts[K];
    return Out;
  }

  const Tree &T;
  const ReportStyle<P, VS> &Style;
  std::map<IncompId, unsigned> Derivations;
  std::vector<std::pair<std::string, Line>> Lines;
  std::map<IncompId, unsigned> LineNumbers;
};

/// The pub-style explanation of a failed solve.
template <class P, class VS>
std::string report(const DerivationTree<P, VS> &Tree,
                   const ReportStyle<P, VS> &Style) {
  return Reporter<P, VS>(Tree, Style).write();
}

} // namespace cudadeps::solver

#endif
