//===- VersionSetPropertyTest.cpp - the set algebra on random sets --------===//
//
// Random sets over a small pool of versions (pre, post, dev, local and epoch
// ones included) and the boundary versions the specifiers use. Membership is
// checked against an oracle that reads the raw intervals the set was built
// from, and the algebra's laws are checked structurally (==), which also
// checks that normalization is canonical. The seed is fixed.
//
//===----------------------------------------------------------------------===//

#include "core/version/VersionSet.h"
#include "tests/unit/version/Printers.h"

#include "llvm/Support/Error.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

using namespace cudadeps;

namespace {

constexpr int Rounds = 3000;

Version v(llvm::StringRef Text) {
  auto V = Version::parse(Text);
  if (!V) {
    ADD_FAILURE() << llvm::toString(V.takeError());
    return Version();
  }
  return *V;
}

class VersionSetProperties : public ::testing::Test {
protected:
  void SetUp() override {
    const char *PoolText[] = {"0",           "0.5",
                              "1.0.dev0",    "1.0.dev1",
                              "1.0a1",       "1.0a1+x",
                              "1.0a1.post1", "1.0a2.dev0",
                              "1.0b2",       "1.0rc1",
                              "1.0",         "1.0+abc",
                              "1.0+cu128",   "1.0.post0.dev0",
                              "1.0.post1",   "1.0.post1+x",
                              "1.0.1",       "1.1rc1",
                              "1.1",         "2.0.dev0",
                              "2.0",         "2.0+local",
                              "2.0.post3",   "2.0.0.1",
                              "12.8",        "12.8.93",
                              "13.0",        "1!0.1"};
    for (const char *T : PoolText)
      Pool.push_back(v(T));
    // Bounds: the pool and the boundary versions specifiers produce.
    Bounds = Pool;
    for (const Version &P : Pool) {
      Bounds.push_back(P.afterAllLocals());
      Bounds.push_back(P.afterAllPosts());
      Bounds.push_back(P.lowestOfRelease());
      Bounds.push_back(P.bumped(0));
      Bounds.push_back(P.bumped(1));
    }
    // Probes: every real bound, plus versions just around them.
    for (const Version &B : Bounds) {
      if (B.isSentinel())
        continue;
      Probes.push_back(B);
      if (B.local().empty())
        Probes.push_back(v(B.str() + "+zz"));
    }
    Probes.push_back(v("0.dev0"));
    Probes.push_back(v("99"));
    Probes.push_back(v("2.0.post3+zz.1"));
  }

  /// One raw interval and a set built from it through the public API.
  struct Raw {
    std::optional<Version> Lo, Hi;
    bool LoInc = false, HiInc = false;
    bool contains(const Version &P) const {
      if (Lo && (LoInc ? P < *Lo : P <= *Lo))
        return false;
      if (Hi && (HiInc ? P > *Hi : P >= *Hi))
        return false;
      return true;
    }
  };

  Raw randomRaw() {
    Raw R;
    if (Rng() % 5)
      R.Lo = Bounds[Rng() % Bounds.size()];
    if (Rng() % 5)
      R.Hi = Bounds[Rng() % Bounds.size()];
    R.LoInc = Rng() % 2;
    R.HiInc = Rng() % 2;
    return R;
  }

  static VersionSet fromRaw(const Raw &R) {
    VersionSet Lo = !R.Lo ? VersionSet::any()
                          : (R.LoInc ? VersionSet::atLeast(*R.Lo)
                                     : VersionSet::greaterThan(*R.Lo));
    VersionSet Hi = !R.Hi ? VersionSet::any()
                          : (R.HiInc ? VersionSet::atMost(*R.Hi)
                                     : VersionSet::lessThan(*R.Hi));
    return Lo.intersect(Hi);
  }

  /// A random set (union of up to four random intervals) and its oracle.
  std::pair<VersionSet, std::vector<Raw>> randomSet() {
    std::vector<Raw> Parts;
    VersionSet S;
    int N = Rng() % 5;
    for (int I = 0; I < N; ++I) {
      Parts.push_back(randomRaw());
      S = S.unionWith(fromRaw(Parts.back()));
    }
    return {S, Parts};
  }

  /// A random set written as a specifier, over pool versions.
  VersionSet randomSpecSet(std::string &Spec) {
    static const char *Ops[] = {">=", ">", "<", "<=", "==", "!=", "~="};
    Spec.clear();
    int Alternatives = 1 + Rng() % 2;
    for (int A = 0; A < Alternatives; ++A) {
      if (A)
        Spec += " || ";
      int Clauses = 1 + Rng() % 3;
      for (int C = 0; C < Clauses; ++C) {
        if (C)
          Spec += ",";
        const Version &P = Pool[Rng() % Pool.size()];
        std::string Op = Ops[Rng() % 7];
        if (Op == "~=")
          Spec += "~=" + P.withoutLocal().truncated(2).str();
        else if ((Op == "==" || Op == "!=") && Rng() % 3 == 0)
          Spec += Op + P.truncated(1 + Rng() % 2).str() + ".*";
        else
          Spec += Op + P.str();
      }
    }
    auto S = VersionSet::parse(Spec);
    if (!S) {
      ADD_FAILURE() << Spec << ": " << llvm::toString(S.takeError());
      return VersionSet();
    }
    return *S;
  }

  std::mt19937 Rng{20260}; // fixed seed: failures reproduce
  std::vector<Version> Pool, Bounds, Probes;
};

TEST_F(VersionSetProperties, MembershipMatchesTheIntervalsBuilt) {
  for (int Round = 0; Round < Rounds; ++Round) {
    auto [S, Parts] = randomSet();
    for (const Version &P : Probes) {
      bool Expected = false;
      for (const Raw &R : Parts)
        Expected = Expected || R.contains(P);
      ASSERT_EQ(S.contains(P), Expected)
          << "round " << Round << ": " << P.str() << " in " << S.str();
    }
  }
}

TEST_F(VersionSetProperties, IntervalsAreSortedDisjointAndNonEmpty) {
  for (int Round = 0; Round < Rounds; ++Round) {
    VersionSet S = randomSet().first;
    const auto &Is = S.intervals();
    for (size_t I = 0; I < Is.size(); ++I) {
      // Rebuilding from one interval gives exactly that interval back.
      Raw R{Is[I].Lower.Value, Is[I].Upper.Value, Is[I].Lower.Inclusive,
            Is[I].Upper.Inclusive};
      VersionSet One = fromRaw(R);
      ASSERT_EQ(One.intervals().size(), 1u) << S.str();
      EXPECT_EQ(One.intervals()[0], Is[I]) << S.str();
      if (I + 1 == Is.size())
        continue;
      // Strictly apart: something lies between consecutive intervals.
      ASSERT_TRUE(Is[I].Upper.Value && Is[I + 1].Lower.Value);
      const Version &U = *Is[I].Upper.Value, &L = *Is[I + 1].Lower.Value;
      EXPECT_TRUE(U < L || (U == L && !Is[I].Upper.Inclusive &&
                            !Is[I + 1].Lower.Inclusive))
          << S.str();
    }
  }
}

TEST_F(VersionSetProperties, OperationsAgreePointwise) {
  for (int Round = 0; Round < Rounds; ++Round) {
    VersionSet A = randomSet().first, B = randomSet().first;
    VersionSet And = A.intersect(B), Or = A.unionWith(B), NotA = A.complement();
    VersionSet Minus = A.minus(B);
    for (const Version &P : Probes) {
      bool InA = A.contains(P), InB = B.contains(P);
      ASSERT_EQ(And.contains(P), InA && InB) << Round << " " << P.str();
      ASSERT_EQ(Or.contains(P), InA || InB) << Round << " " << P.str();
      ASSERT_EQ(NotA.contains(P), !InA) << Round << " " << P.str();
      ASSERT_EQ(Minus.contains(P), InA && !InB) << Round << " " << P.str();
    }
  }
}

TEST_F(VersionSetProperties, LawsHoldStructurally) {
  for (int Round = 0; Round < Rounds; ++Round) {
    VersionSet A = randomSet().first, B = randomSet().first,
               C = randomSet().first;
    SCOPED_TRACE("A = " + A.str() + "; B = " + B.str());
    VersionSet NotA = A.complement(), NotB = B.complement();
    // De Morgan.
    ASSERT_EQ(A.unionWith(B).complement(), NotA.intersect(NotB));
    ASSERT_EQ(A.intersect(B).complement(), NotA.unionWith(NotB));
    // Involution, excluded middle, contradiction.
    ASSERT_EQ(NotA.complement(), A);
    ASSERT_TRUE(A.unionWith(NotA).isAny());
    ASSERT_TRUE(A.intersect(NotA).isEmpty());
    // Idempotence, commutativity, associativity, absorption.
    ASSERT_EQ(A.unionWith(A), A);
    ASSERT_EQ(A.intersect(A), A);
    ASSERT_EQ(A.intersect(B), B.intersect(A));
    ASSERT_EQ(A.unionWith(B), B.unionWith(A));
    ASSERT_EQ(A.intersect(B).intersect(C), A.intersect(B.intersect(C)));
    ASSERT_EQ(A.unionWith(B).unionWith(C), A.unionWith(B.unionWith(C)));
    ASSERT_EQ(A.unionWith(A.intersect(B)), A);
    ASSERT_EQ(A.intersect(A.unionWith(B)), A);
    // Distributivity and splitting.
    ASSERT_EQ(A.intersect(B.unionWith(C)),
              A.intersect(B).unionWith(A.intersect(C)));
    ASSERT_EQ(A.intersect(B).unionWith(A.minus(B)), A);
    // Rebuilding from its own intervals gives the same set.
    VersionSet Rebuilt;
    for (const Interval &I : A.intervals())
      Rebuilt = Rebuilt.unionWith(fromRaw(Raw{
          I.Lower.Value, I.Upper.Value, I.Lower.Inclusive, I.Upper.Inclusive}));
    ASSERT_EQ(Rebuilt, A);
  }
}

TEST_F(VersionSetProperties, SubsetAndDisjointAgreeWithMembership) {
  int Subsets = 0, Disjoint = 0;
  for (int Round = 0; Round < Rounds; ++Round) {
    VersionSet A = randomSet().first, B = randomSet().first;
    if (Round % 3 == 0)
      A = A.intersect(B); // make subsets common
    if (Round % 3 == 1)
      A = A.minus(B); // and disjoint pairs
    bool Sub = A.isSubsetOf(B), Dis = A.isDisjoint(B);
    Subsets += Sub;
    Disjoint += Dis;
    // isSubsetOf and isDisjoint walk the intervals without building sets:
    // they must agree with the set-building definitions.
    EXPECT_EQ(Sub, A.minus(B).isEmpty()) << A.str() << " <= " << B.str();
    EXPECT_EQ(Sub, A.intersect(B) == A);
    EXPECT_EQ(Sub, A.unionWith(B) == B);
    EXPECT_EQ(Dis, A.intersect(B).isEmpty());
    EXPECT_EQ(Dis, A.isSubsetOf(B.complement()));
    for (const Version &P : Probes) {
      if (Sub && A.contains(P)) {
        ASSERT_TRUE(B.contains(P)) << A.str() << " <= " << B.str();
      }
      if (Dis && A.contains(P)) {
        ASSERT_FALSE(B.contains(P)) << A.str() << " # " << B.str();
      }
    }
    if (!Sub) {
      // Some version of A is outside B: a probe or a version beside one.
      EXPECT_FALSE(A.minus(B).isEmpty());
    }
  }
  // The generator did produce both kinds.
  EXPECT_GT(Subsets, Rounds / 4);
  EXPECT_GT(Disjoint, Rounds / 4);
}

TEST_F(VersionSetProperties, SpecifierSetsRoundTripThroughStr) {
  for (int Round = 0; Round < Rounds; ++Round) {
    std::string Spec;
    VersionSet S = randomSpecSet(Spec);
    std::string Text = S.str();
    if (S.isEmpty()) {
      EXPECT_EQ(Text, "");
      continue;
    }
    auto Back = VersionSet::parse(Text);
    ASSERT_TRUE(static_cast<bool>(Back))
        << Spec << " -> " << Text << ": " << llvm::toString(Back.takeError());
    ASSERT_EQ(*Back, S) << Spec << " -> " << Text << " -> " << Back->str();
    // The text never shows a sentinel.
    EXPECT_EQ(Text.find("+*"), std::string::npos) << Text;
    // So does its complement.
    VersionSet Not = S.complement();
    if (!Not.isEmpty()) {
      auto BackNot = VersionSet::parse(Not.str());
      ASSERT_TRUE(static_cast<bool>(BackNot))
          << llvm::toString(BackNot.takeError());
      ASSERT_EQ(*BackNot, Not) << "not (" << Spec << ") -> " << Not.str();
    }
    // Two specifier sets combine into sets that still round-trip.
    std::string Spec2;
    VersionSet S2 = randomSpecSet(Spec2);
    for (const VersionSet &Both : {S.intersect(S2), S.unionWith(S2)}) {
      if (Both.isEmpty())
        continue;
      auto Back2 = VersionSet::parse(Both.str());
      ASSERT_TRUE(static_cast<bool>(Back2))
          << llvm::toString(Back2.takeError());
      ASSERT_EQ(*Back2, Both) << Spec << " ; " << Spec2 << " -> " << Both.str();
    }
  }
}

} // namespace
