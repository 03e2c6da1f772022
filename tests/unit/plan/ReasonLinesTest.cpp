// ReasonLines: each reason said once, a line that begins a longer one left
// out, what one package needs of another merged into one line; and the same
// lines as the walk over every line said so far, which it replaces, on
// random sequences of both kinds of line.
#include "core/plan/ReasonLines.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <gtest/gtest.h>

#include <random>

using namespace cudadeps;

namespace {

using Lines = std::vector<std::string>;

TEST(ReasonLines, SaysEachLineOnce) {
  ReasonLines R;
  R.add("no nvcc was found");
  R.add("");
  R.add("no nvcc was found");
  R.add("torch is not installed");
  EXPECT_EQ(R.lines(), (Lines{"no nvcc was found", "torch is not installed"}));
}

TEST(ReasonLines, LeavesOutALineThatBeginsOneSaidWithAColon) {
  ReasonLines R;
  R.add("torch is not installed: x is a torch extension");
  R.add("torch is not installed");    // begins the line above, then ':'
  R.add("torch is not");              // begins it, but no colon follows
  R.add("torch is not installed: x"); // begins it, but ' ' follows, not ':'
  EXPECT_EQ(R.lines(), (Lines{"torch is not installed: x is a torch extension",
                              "torch is not", "torch is not installed: x"}));
}

TEST(ReasonLines, MergesWhatOnePackageNeedsOfAnother) {
  ReasonLines R;
  R.addNeed("a", "torch", ">=2.5");
  R.addNeed("b", "torch", ">=2.7");
  R.addNeed("a", "torch", ">=2.7");
  R.addNeed("a", "torch", ">=2.5"); // said already
  R.addNeed("a", "torch", "<3");
  R.addNeed("a", "tor", ">=1"); // another package, though a prefix
  EXPECT_EQ(R.lines(), (Lines{"a needs torch >=2.5 or >=2.7 or <3 (by release)",
                              "b needs torch >=2.7", "a needs tor >=1"}));
  // The merged text is what is known now: said again, it is left out.
  R.add("a needs torch >=2.5 or >=2.7 or <3 (by release)");
  R.add("a needs torch >=2.5");
  EXPECT_EQ(R.lines().size(), 4u);
  EXPECT_EQ(R.lines().back(), "a needs torch >=2.5");
}

TEST(ReasonLines, AMergedLineIsKnownByWhatItSaysNow) {
  // add() asks after what addNeed() wrote since its last call: a line
  // merged after an add() is known by its new text, not its old one.
  ReasonLines R;
  R.addNeed("a", "t", ">=1");
  R.add("x: y");
  R.addNeed("a", "t", "<2");
  R.addNeed("a", "t", "==3");
  R.add("a needs t >=1 or <2 or ==3 (by release)"); // said: left out
  R.add("a needs t >=1");                           // no longer said
  R.add("x");                                       // begins "x: y"
  EXPECT_EQ(R.lines(), (Lines{"a needs t >=1 or <2 or ==3 (by release)", "x: y",
                              "a needs t >=1"}));
}

TEST(ReasonLines, ASetOfSeveralAlternativesAddsThoseNotSaid) {
  // A strategy's wording is one set as two alternatives: said again (two
  // releases with the same requirement), it adds nothing; said beside one
  // of its alternatives, it adds the other.
  ReasonLines R;
  R.addNeed("a", "t", ">=1 (source build) or >=2 (prebuilt)");
  R.addNeed("a", "t", ">=1 (source build) or >=2 (prebuilt)");
  EXPECT_EQ(R.lines(),
            (Lines{"a needs t >=1 (source build) or >=2 (prebuilt)"}));
  R.addNeed("b", "t", ">=1 (source build)");
  R.addNeed("b", "t", ">=1 (source build) or >=2 (prebuilt)");
  EXPECT_EQ(R.lines().back(),
            "b needs t >=1 (source build) or >=2 (prebuilt) (by release)");
}

TEST(ReasonLines, NamesWithSpacesAreLookedForTheLongWay) {
  ReasonLines R;
  R.add("my pkg needs torch >=1: odd");
  R.addNeed("my pkg", "torch", ">=2");
  EXPECT_EQ(R.lines(),
            (Lines{"my pkg needs torch >=1: odd or >=2 (by release)"}));
}

/// The walk over every line so far that ReasonLines replaces.
struct Walk {
  Lines Out;
  void add(const std::string &Line) {
    if (Line.empty() || llvm::is_contained(Out, Line) ||
        llvm::any_of(Out, [&](const std::string &L) {
          return llvm::StringRef(L).startswith(Line + ":");
        }))
      return;
    Out.push_back(Line);
  }
  void addNeed(const std::string &From, const std::string &To,
               const std::string &Set) {
    std::string Head = From + " needs " + To + " ";
    for (std::string &L : Out) {
      if (!llvm::StringRef(L).startswith(Head))
        continue;
      llvm::StringRef Sets = llvm::StringRef(L).drop_front(Head.size());
      Sets.consume_back(" (by release)");
      llvm::SmallVector<llvm::StringRef, 4> Known, Alternatives;
      Sets.split(Known, " or ");
      llvm::StringRef(Set).split(Alternatives, " or ");
      std::string Added;
      for (llvm::StringRef Alt : Alternatives)
        if (!llvm::is_contained(Known, Alt)) {
          Known.push_back(Alt);
          Added += " or " + Alt.str();
        }
      if (!Added.empty())
        L = Head + Sets.str() + Added + " (by release)";
      return;
    }
    Out.push_back(Head + Set);
  }
};

/// Random sequences of both kinds of line, said to ReasonLines R() and to
/// the walk: the same lines after each sequence.
template <class MakeF> void sameLinesAsTheWalk(MakeF Make) {
  std::mt19937 Rng(7);
  auto Pick = [&](std::vector<std::string> From) {
    return From[Rng() % From.size()];
  };
  const std::vector<std::string> Names{"a", "b", "c", "a b", "c:d", ""};
  const std::vector<std::string> Sets{">=1", "<2",           ">=1 or <2",
                                      "==3", "(by release)", ""};
  for (int Round = 0; Round < 300; ++Round) {
    ReasonLines R = Make();
    Walk W;
    for (int Step = 0; Step < 40; ++Step) {
      std::string From = Pick(Names), To = Pick(Names), Set = Pick(Sets);
      if (Rng() % 2) {
        R.addNeed(From, To, Set);
        W.addNeed(From, To, Set);
        continue;
      }
      // Lines that are, begin, or look like what addNeed() writes.
      std::string Line;
      switch (Rng() % 4) {
      case 0:
        Line = From + " needs " + To + " " + Set;
        break;
      case 1:
        Line = From + " needs " + To;
        break;
      case 2:
        Line = From + ":" + To;
        break;
      default:
        Line = W.Out.empty() ? From : W.Out[Rng() % W.Out.size()];
        if (!Line.empty() && Rng() % 2)
          Line.resize(Rng() % Line.size());
      }
      R.add(Line);
      W.add(Line);
    }
    ASSERT_EQ(R.lines(), W.Out) << "round " << Round;
  }
}

TEST(ReasonLines, TheSameLinesAsTheWalkOverAllLines) {
  sameLinesAsTheWalk([] { return ReasonLines(); });
}

// Heads whose hashes collide (two hashes for every head) are looked for
// line by line: the same lines. Fails where the line a hash finds is taken
// as the head's without reading it.
TEST(ReasonLines, HeadsWhoseHashesCollideAreLookedForLineByLine) {
  sameLinesAsTheWalk([] {
    return ReasonLines(
        [](llvm::StringRef Head) -> uint64_t { return Head.size() & 1; });
  });
  ReasonLines R([](llvm::StringRef) -> uint64_t { return 7; });
  R.addNeed("a", "t", ">=1");
  R.addNeed("b", "t", ">=2");
  R.addNeed("a", "t", "<3");
  R.addNeed("b", "t", "<4");
  EXPECT_EQ(R.lines(), (Lines{"a needs t >=1 or <3 (by release)",
                              "b needs t >=2 or <4 (by release)"}));
}

} // namespace
