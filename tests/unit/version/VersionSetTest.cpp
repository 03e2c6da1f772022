//===- VersionSetTest.cpp - specifiers, rendering and set operations ------===//

#include "core/version/VersionSet.h"
#include "core/support/BinaryCodec.h"
#include "tests/unit/version/Printers.h"

#include "llvm/Support/Error.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

using namespace cudadeps;

namespace {

Version v(llvm::StringRef Text) {
  auto V = Version::parse(Text);
  if (!V) {
    ADD_FAILURE() << "cannot parse version '" << Text.str()
                  << "': " << llvm::toString(V.takeError());
    return Version();
  }
  return *V;
}

VersionSet set(llvm::StringRef Spec) {
  auto S = VersionSet::parse(Spec);
  if (!S) {
    ADD_FAILURE() << "cannot parse specifier '" << Spec.str()
                  << "': " << llvm::toString(S.takeError());
    return VersionSet();
  }
  return *S;
}

std::string specError(llvm::StringRef Spec) {
  auto S = VersionSet::parse(Spec);
  if (S)
    return "parsed as '" + S->str() + "'";
  return llvm::toString(S.takeError());
}

struct MemberCase {
  const char *Spec;
  std::vector<const char *> In;
  std::vector<const char *> Out;
};

TEST(VersionSetParse, EachSpecifierForm) {
  const MemberCase Cases[] = {
      {"", {"0.dev0", "1.0", "2.11.0+cu128", "1!0.1"}, {}},
      {"*", {"0", "1.0rc1", "99.9.post3"}, {}},
      {" * ", {"0"}, {}},
      {">=11.6",
       {"11.6", "11.6.0", "11.6+x", "11.6.post1", "12.8.93"},
       {"11.5.99", "11.6rc1", "11.6.dev0", "1.0"}},
      {">=2.4,<3",
       {"2.4", "2.11.0+cu128", "2.99.post1", "2.4.1"},
       {"2.3", "3.0", "3.0rc1", "3.0.dev0", "3.1"}},
      {" >= 2.4 ,  < 3 ", {"2.4", "2.9"}, {"3", "2.3"}},
      {"<=2.11",
       {"2.11", "2.11.0+cu128", "2.10", "2.11rc1"},
       {"2.11.post0", "2.11.0.1", "2.12.dev0"}},
      {"<2.11",
       {"2.10", "2.10.post5+x", "2.10.99"},
       {"2.11", "2.11rc1", "2.11.dev0", "2.11+cu128", "2.12"}},
      {"<2.11rc1",
       {"2.11.dev0", "2.11a1", "2.11b9"},
       {"2.11rc1", "2.11rc1+x", "2.11"}},
      {"<2.11.post1",
       {"2.11", "2.11+x", "2.11.post0"},
       {"2.11.post1.dev0", "2.11.post1"}},
      {">2.11",
       {"2.11.0.1", "2.12", "2.12rc1", "3.0"},
       {"2.11", "2.11+cu128", "2.11.post1", "2.11.post1.dev0", "2.11rc1"}},
      {">2.11.post1",
       {"2.11.post2", "2.11.post2.dev0", "2.12"},
       {"2.11.post1", "2.11.post1+x", "2.11"}},
      {">1.0a1",
       {"1.0a2", "1.0b1", "1.0"},
       {"1.0a1", "1.0a1+x", "1.0a1.post3", "1.0.dev1"}},
      {">1.0.dev2",
       {"1.0.dev3", "1.0a1", "1.0"},
       {"1.0.dev2", "1.0.dev2+x", "1.0.dev1"}},
      {"==2.11.0",
       {"2.11.0", "2.11", "2.11.0+cu128", "2.11.0+cpu"},
       {"2.11.0rc1", "2.11.0.post1", "2.11.1", "2.11.0.dev0"}},
      {"==2.11.0+cu128",
       {"2.11.0+cu128", "2.11+cu128"},
       {"2.11.0", "2.11.0+cu126", "2.11.0+cu128.1", "2.11.0.post1"}},
      {"===1.0", {"1.0", "1.0+x"}, {"1.0.post1", "1.0rc1"}},
      {"!=2.0", {"1.9", "2.0.post1", "2.0rc1", "2.0.1"}, {"2.0", "2.0+x"}},
      {"!=2.0+cu128", {"2.0", "2.0+cu126"}, {"2.0+cu128"}},
      {"==12.*",
       {"12", "12.0", "12.8.93", "12.9rc1", "12.0.dev0", "12+x", "12.1.post2"},
       {"11.8", "13.0", "13.0.dev0", "13rc1", "11.99.post9"}},
      {"==12.8.*",
       {"12.8", "12.8.93", "12.8rc1", "12.8.0.dev0"},
       {"12.9", "12.7.99", "12.9.dev0", "12.80"}},
      {"==12.0.*", {"12", "12.0.5"}, {"12.1", "12.1.dev0"}},
      {"!=12.*", {"11.8", "13.0", "13.0.dev0"}, {"12.0", "12.8.93", "12rc1"}},
      {"~=1.5",
       {"1.5", "1.5.1", "1.9", "1.99.post1"},
       {"1.4", "1.5rc1", "2.0", "2.0.dev0", "2.0rc1"}},
      {"~=1.5.2",
       {"1.5.2", "1.5.3", "1.5.2+x"},
       {"1.5.1", "1.6", "1.6.dev0", "1.5.2rc1"}},
      {"~=2.2.post3", {"2.2.post3", "2.3", "2.9"}, {"2.2", "2.2.post2", "3.0"}},
      {"~=1!2.2", {"1!2.2", "1!2.5"}, {"2.2", "1!3.0"}},
      {">=1,<2,!=1.5",
       {"1.0", "1.4", "1.5.1", "1.5.post1", "1.5rc1"},
       {"1.5", "1.5+x", "2.0", "0.9"}},
      {"==1.*,!=1.5.*", {"1.4", "1.6"}, {"1.5", "1.5.9", "2.0"}},
      {"<1 || >=3", {"0.5", "3.0", "4"}, {"1.0", "2.0", "3.0rc1"}},
      {"<=2.11+cu128", {"2.11+cu126", "2.11"}, {"2.11+cu129", "2.11.post0"}},
      {"<2.11+cu128", {"2.11+cu126", "2.11"}, {"2.11+cu128"}},
      {">2.11+cu126", {"2.11+cu128", "2.11.post1"}, {"2.11+cu126", "2.11"}},
  };
  for (const MemberCase &C : Cases) {
    SCOPED_TRACE(C.Spec);
    VersionSet S = set(C.Spec);
    for (const char *In : C.In)
      EXPECT_TRUE(S.contains(v(In))) << In << " should be in " << S.str();
    for (const char *Out : C.Out)
      EXPECT_FALSE(S.contains(v(Out)))
          << Out << " should not be in " << S.str();
  }
}

TEST(VersionSetParse, EquivalentSpellingsGiveEqualSets) {
  EXPECT_EQ(set("~=1.5"), set(">=1.5,==1.*"));
  EXPECT_EQ(set("~=1.5.2"), set(">=1.5.2,==1.5.*"));
  EXPECT_EQ(set("===2.0"), set("==2.0"));
  EXPECT_EQ(set("==2.0"), set("==2"));
  EXPECT_EQ(set("==2.0"), set("==2.0.0"));
  EXPECT_EQ(set(""), VersionSet::any());
  EXPECT_EQ(set("*"), VersionSet::any());
  EXPECT_EQ(set(">=0.dev0"), VersionSet::any());
  EXPECT_EQ(set("==0.*"), set("<1"));
  EXPECT_TRUE(set("<0.dev0").isEmpty());
  EXPECT_TRUE(set(">=2,<1").isEmpty());
  EXPECT_TRUE(set("==1.*,==2.*").isEmpty());
  EXPECT_EQ(set("<2.11"), set("<2.11.dev0"));
  EXPECT_EQ(set("<=2.11"), set("<2.11.post0.dev0"));
  EXPECT_EQ(set("!=2.0"), set("==2.0").complement());
  EXPECT_EQ(set("!=12.*"), set("==12.*").complement());
  EXPECT_EQ(set("<1 || >=3.dev0"), set(">=1.dev0,<3").complement());
  EXPECT_EQ(set(">=1,<2 || >=1.5,<3"), set(">=1,<3"));
  EXPECT_EQ(set("==1.* || ==2.*"), set(">=1.dev0,<3"));
}

TEST(VersionSetParse, ErrorsNameTheOffendingPart) {
  const std::pair<std::string, const char *> Cases[] = {
      {">>2", "invalid specifier '>>2': unknown operator '>>'"},
      {"=>2", "invalid specifier '=>2': unknown operator '=>'"},
      {"=2", "invalid specifier '=2': unknown operator '='"},
      {"!2", "invalid specifier '!2': unknown operator '!'"},
      {"~2", "unknown operator '~'"},
      {"<<=1", "unknown operator '<<='"},
      {">=", "invalid specifier '>=': expected a version after '>='"},
      {">=1.0,<", "invalid specifier '<': expected a version after '<'"},
      {"~=1", "invalid specifier '~=1': '~=' needs at least two release "
              "segments"},
      {"~=1.0+x", "'~=' does not take a local label"},
      {"12.8", "invalid specifier '12.8': expected an operator (==, !=, <, "
               "<=, >, >=, ~=, ===) before '12.8'"},
      {">=1.0.*", "invalid specifier '>=1.0.*': '.*' is only allowed after "
                  "'==' or '!='"},
      {"==1.0a1.*", "a prefix match takes only release segments"},
      {"==1.*.2", "invalid specifier '==1.*.2': invalid version '1.*.2'"},
      {">=1.x", "invalid specifier '>=1.x': invalid version '1.x': "},
      {">=1.0,,<2", "expected a specifier such as '>=1.0' between commas"},
      {"<=1.0.post1.post*", "'<=V.post*' takes a version without post"},
      {">=1.0.post*", "invalid version '1.0.post*'"},
      {">=1.0,", "between commas"},
      {"|| >=1", "on each side of '||'"},
      {">=99999999999999999999999", "does not fit in 64 bits"},
      {std::string(">=1\0", 4), "invalid specifier '>=1\\x00'"},
  };
  for (const auto &[Spec, Message] : Cases) {
    SCOPED_TRACE(Spec);
    std::string Msg = specError(Spec);
    EXPECT_NE(Msg.find(Message), std::string::npos) << Msg;
  }
}

TEST(VersionSetParse, HostileInputGetsAnErrorNotACrash) {
  std::string Huge(100 * 1024, '>');
  std::string Msg = specError(Huge);
  EXPECT_NE(Msg.find("expected at most 4096 characters"), std::string::npos)
      << Msg;
  EXPECT_LT(Msg.size(), 200u);

  std::string ManyClauses;
  for (int I = 0; I < 400; ++I)
    ManyClauses += "!=1." + std::to_string(I) + ",";
  ManyClauses += ">=1";
  VersionSet Many = set(ManyClauses);
  EXPECT_FALSE(Many.contains(v("1.399")));
  EXPECT_TRUE(Many.contains(v("1.400")));
  EXPECT_EQ(set(Many.str()), Many);

  for (int B = 0; B < 256; ++B) {
    char C = static_cast<char>(B);
    for (std::string Spec :
         {std::string(1, C), ">=" + std::string(1, C),
          ">=1.0" + std::string(1, C), std::string(1, C) + "1.0"}) {
      auto S = VersionSet::parse(Spec);
      if (!S) {
        std::string M = llvm::toString(S.takeError());
        EXPECT_EQ(M.rfind("invalid specifier '", 0), 0u) << M;
        for (char Ch : M)
          EXPECT_TRUE(Ch >= 0x20 && Ch < 0x7f) << M;
        continue;
      }
      EXPECT_EQ(set(S->str()), *S) << B;
    }
  }

  std::mt19937 Rng(508);
  const std::string Alphabet = "0123456789.*,|<>=!~ +abrcpostdev";
  for (int I = 0; I < 20000; ++I) {
    std::string Spec;
    int Len = Rng() % 20;
    for (int J = 0; J < Len; ++J)
      Spec += (Rng() % 8 == 0) ? static_cast<char>(Rng() % 256)
                               : Alphabet[Rng() % Alphabet.size()];
    auto S = VersionSet::parse(Spec);
    if (!S) {
      std::string M = llvm::toString(S.takeError());
      ASSERT_EQ(M.rfind("invalid specifier '", 0), 0u) << M;
      continue;
    }
    EXPECT_EQ(set(S->str()), *S) << Spec;
  }
}

TEST(VersionSetStr, PepStyleText) {
  const std::pair<const char *, const char *> Cases[] = {
      {"", "*"},
      {">=1.0,<2.0", ">=1.0,<2.0"},
      {"<2.0,>=1.0", ">=1.0,<2.0"},
      {"==12.8", "==12.8"},
      {"==12.8.0", "==12.8.0"},
      {"==12.8.93", "==12.8.93"},
      {"!=2.0", "!=2.0"},
      {"==12.*", "==12.*"},
      {"==12.8.*", "==12.8.*"},
      {"!=12.*", "!=12.*"},
      {"~=1.5", ">=1.5,<2"},
      {"~=1.5.2", ">=1.5.2,<1.6"},
      {">2.11", ">2.11"},
      {">2.11.post1", ">2.11.post1"},
      {">1.0a1", ">1.0a1"},
      {"<2.11", "<2.11"},
      {"<=2.11", "<=2.11"},
      {"<2.11rc1", "<2.11rc1"},
      {"==2.11.0+cu128", "==2.11.0+cu128"},
      {"!=2.11.0+cu128", "!=2.11.0+cu128"},
      {">=1,<2,!=1.5", ">=1,<2,!=1.5"},
      {"==1.*,!=1.5", "==1.*,!=1.5"},
      {"!=1.0,!=2.0", "!=1.0,!=2.0"},
      {">=1.0 || ==0.5", "==0.5 || >=1.0"},
      {"!=1.*,!=2.*", "<1 || >=3.dev0"},
  };
  for (const auto &[Spec, Text] : Cases) {
    SCOPED_TRACE(Spec);
    EXPECT_EQ(set(Spec).str(), Text);
  }
  EXPECT_EQ(VersionSet::empty().str(), "");
  EXPECT_EQ(VersionSet::any().str(), "*");
  EXPECT_EQ(VersionSet::exactly(v("12.8.93")).str(), "==12.8.93");
  EXPECT_EQ(VersionSet::atLeast(v("11.6")).str(), ">=11.6");
  EXPECT_EQ(VersionSet::between(v("12"), v("13").lowestOfRelease()).str(),
            ">=12,<13");
  // A plain '<13' keeps 13's pre-releases, which PEP 440's '<13' excludes.
  EXPECT_EQ(VersionSet::between(v("12"), v("13")).str(), ">=12,<=13,!=13");
  EXPECT_EQ(set(">=2.0").complement().str(), "<=2.0,!=2.0");
  EXPECT_EQ(set("<2.0").complement().str(), ">=2.0.dev0");
  // The complement of '>V' has no PEP 440 spelling; parse() reads ours.
  EXPECT_EQ(set(">2.11").complement().str(), "<=2.11.post*");
  EXPECT_EQ(set("<=2.11.post*"), set(">2.11").complement());
  EXPECT_TRUE(set("<=2.11.post*").contains(v("2.11.post7+x")));
  EXPECT_FALSE(set("<=2.11.post*").contains(v("2.11.0.1")));
  EXPECT_EQ(set("<=2.0").complement().str(), ">=2.0,!=2.0");
  EXPECT_EQ(set("<=1.0a1").complement().str(), ">=1.0a1,!=1.0a1");
}

TEST(VersionSetStr, RoundTripsForSetsBuiltFromSpecifiers) {
  const char *Specs[] = {"*",
                         ">=1.0",
                         ">1.0",
                         "<1.0",
                         "<=1.0",
                         "==1.0",
                         "!=1.0",
                         "==1.*",
                         "!=1.*",
                         "~=1.5",
                         "~=1.5.2",
                         ">=1,<2,!=1.5",
                         ">2.11.post1",
                         ">1.0a1",
                         ">1.0.dev2",
                         "<1.0.post2",
                         "<=1.0.post2",
                         "<=1.0a1",
                         "<=1.0a1.post2",
                         "<=1.0.dev2",
                         "==2.11.0+cu128",
                         "!=2.11.0+cu128",
                         "<=2.0+x",
                         ">2.0+x",
                         ">=2.0+x",
                         "<2.0+x",
                         "==1.0.*,!=1.0.5",
                         "!=1.*,!=2.*",
                         ">=1!2.0",
                         "==0.*",
                         ">=0",
                         "<0.1",
                         "~=2.2.post3",
                         "==1.18446744073709551615.*",
                         "<=18446744073709551615.18446744073709551615"};
  std::vector<VersionSet> Sets;
  for (const char *Spec : Specs)
    Sets.push_back(set(Spec));
  auto Check = [](const VersionSet &S, const std::string &What) {
    if (S.isEmpty())
      return; // "" is the empty set's text but parses as any
    auto Back = VersionSet::parse(S.str());
    ASSERT_TRUE(static_cast<bool>(Back))
        << What << " -> '" << S.str()
        << "': " << llvm::toString(Back.takeError());
    EXPECT_EQ(*Back, S) << What << " -> '" << S.str() << "' -> '" << Back->str()
                        << "'";
  };
  for (size_t I = 0; I < Sets.size(); ++I) {
    Check(Sets[I], Specs[I]);
    Check(Sets[I].complement(), std::string("not ") + Specs[I]);
    for (size_t J = 0; J < Sets.size(); ++J) {
      if (Sets[I].intersect(Sets[J]).isEmpty()) {
        EXPECT_EQ(Sets[I].intersect(Sets[J]).str(), "");
      }
    }
    for (size_t J = 0; J < Sets.size(); ++J) {
      Check(Sets[I].intersect(Sets[J]),
            std::string(Specs[I]) + " & " + Specs[J]);
      Check(Sets[I].unionWith(Sets[J]),
            std::string(Specs[I]) + " | " + Specs[J]);
    }
  }
}

TEST(VersionSetOps, BasicAlgebra) {
  VersionSet A = set(">=1.0,<2.0");
  VersionSet B = set(">=1.5,<3.0");
  EXPECT_EQ(A.intersect(B), set(">=1.5,<2.0"));
  EXPECT_EQ(A.unionWith(B), set(">=1.0,<3.0"));
  // Plain set difference: 1.5's pre-releases stay in.
  EXPECT_EQ(A.minus(B), VersionSet::between(v("1.0"), v("1.5")));
  EXPECT_TRUE(A.minus(B).contains(v("1.5rc1")));
  EXPECT_TRUE(set("==1.5").isSubsetOf(A));
  EXPECT_FALSE(A.isSubsetOf(B));
  EXPECT_TRUE(set("<1").isDisjoint(A));
  EXPECT_FALSE(A.isDisjoint(B));
  EXPECT_TRUE(VersionSet::empty().isSubsetOf(VersionSet::empty()));
  EXPECT_TRUE(VersionSet::any().complement().isEmpty());
  EXPECT_TRUE(VersionSet::empty().complement().isAny());

  // Touching intervals merge; a single missing point keeps them apart.
  EXPECT_EQ(VersionSet::between(v("1"), v("2"))
                .unionWith(VersionSet::between(v("2"), v("3"))),
            VersionSet::between(v("1"), v("3")));
  VersionSet Gap =
      VersionSet::lessThan(v("2")).unionWith(VersionSet::greaterThan(v("2")));
  EXPECT_EQ(Gap.intervals().size(), 2u);
  EXPECT_FALSE(Gap.contains(v("2")));
  EXPECT_TRUE(Gap.contains(v("2+x")));
  EXPECT_EQ(Gap.unionWith(VersionSet::exactly(v("2.0"))), VersionSet::any());

  EXPECT_EQ(VersionSet::exactly(v("12.8.93")).singleton(), v("12.8.93"));
  EXPECT_FALSE(set("==12.8.93").singleton().has_value());
  EXPECT_EQ(set("==2.11.0+cu128").singleton(), v("2.11.0+cu128"));
  EXPECT_TRUE(VersionSet::lessThan(v("0.dev0")).isEmpty());
  EXPECT_TRUE(VersionSet::between(v("2"), v("1")).isEmpty());
  EXPECT_TRUE(VersionSet::between(v("2"), v("2")).isEmpty());
  EXPECT_EQ(VersionSet::exactly(v("2")).intervals().size(), 1u);
}

} // namespace

namespace {

// The accessors of a temporary return by value: a range-for over
// `A.intersect(B).intervals()` or `V.withEpoch(1).release()` owns what it
// iterates instead of reading a destroyed object.
static_assert(std::is_same_v<decltype(std::declval<VersionSet>().intervals()),
                             std::vector<Interval>>);
// A set's own: a view of the intervals it shares with its copies.
static_assert(
    std::is_same_v<decltype(std::declval<const VersionSet &>().intervals()),
                   llvm::ArrayRef<Interval>>);
static_assert(!std::is_reference_v<decltype(std::declval<Version>().release())>);
static_assert(!std::is_reference_v<decltype(std::declval<Version>().local())>);

TEST(VersionSet, CopiesShareIntervalsAndStayEqual) {
  VersionSet A = set(">=1,<3 || >=5");
  VersionSet B = A;
  // One array for both: a copy allocates nothing.
  EXPECT_EQ(A.intervals().data(), B.intervals().data());
  EXPECT_EQ(A, B);
  EXPECT_EQ(A.hash(), B.hash());
  // Taking a shared set's intervals copies them; the other set keeps its.
  std::vector<Interval> Taken = std::move(B).intervals();
  ASSERT_EQ(Taken.size(), 2u);
  EXPECT_EQ(A.str(), ">=1,<3 || >=5");
  EXPECT_EQ(VersionSet::unionOf(Taken), A);
  // Taking the only owner's moves them out.
  VersionSet C = set(">=2,<4");
  VersionSet D = C;
  C = VersionSet::empty();
  std::vector<Interval> Moved = std::move(D).intervals();
  ASSERT_EQ(Moved.size(), 1u);
  EXPECT_EQ(VersionSet::unionOf(Moved), set(">=2,<4"));
  // Equal sets built apart compare equal without sharing.
  VersionSet E = set(">=1,<3").unionWith(set(">=5"));
  EXPECT_NE(E.intervals().data(), A.intervals().data());
  EXPECT_EQ(E, A);
  // Assignment over a shared set leaves the other one whole.
  VersionSet F = A;
  F = set("==7");
  EXPECT_EQ(A.str(), ">=1,<3 || >=5");
  EXPECT_EQ(F.str(), "==7");
  EXPECT_TRUE(VersionSet::empty().intervals().empty());
}

TEST(VersionSet, IntervalsOfATemporaryOutliveIt) {
  VersionSet A = set(">=1,<3 || >=5");
  std::vector<std::string> Seen;
  for (const Interval &I : A.intersect(set(">=2")).intervals())
    Seen.push_back(I.Lower.Value ? I.Lower.Value->str() : "-inf");
  EXPECT_EQ(Seen, (std::vector<std::string>{"2", "5"}));
  std::vector<uint64_t> R;
  for (uint64_t X : v("12.8.93").withEpoch(1).release())
    R.push_back(X);
  EXPECT_EQ(R, (std::vector<uint64_t>{12, 8, 93}));
}

} // namespace

// contains() compares a version with each bound directly; the set algebra
// (isSubsetOf) works on canonical cuts. Both must agree for every real
// version, on sets whose bounds are sentinels, the minimum, pre-, post-,
// dev- and local versions; and rangesIn() must pick out exactly the
// versions contains() accepts, as runs of a sorted list.
TEST(VersionSet, ContainsAndRangesInAgreeWithTheSetAlgebra) {
  const char *Specs[] = {"*", ">=1.0", ">1.0", "<1.0", "<=1.0", "==1.0",
                         "!=1.0", "==1.*", "!=1.*", "~=1.5", ">=1,<2,!=1.5",
                         ">2.11.post1", ">1.0a1", ">1.0.dev2", "<1.0.post2",
                         "<=1.0a1", "==2.11.0+cu128", "!=2.11.0+cu128",
                         "<=2.0+x", ">2.0+x", "==1.0.*,!=1.0.5", ">=1!2.0",
                         "==0.*", ">=0", "<0.1", ">=0.dev0", "<0.dev0",
                         "==1.18446744073709551615.*"};
  const char *Texts[] = {"0.dev0", "0", "0.1", "0.9", "1.0.dev0", "1.0a1",
                         "1.0a2.dev0", "1.0", "1.0+local", "1.0.post1",
                         "1.0.post2", "1.0.post2.dev1", "1.0.5", "1.5",
                         "1.5.1", "1.9", "2.0", "2.0+x", "2.0+y", "2.0.post1",
                         "2.11", "2.11.0+cu128", "2.11.post1", "2.11.post2",
                         "3.0rc1", "3.0", "1!1.0", "1!2.0",
                         "1.18446744073709551615.3", "2.dev0"};
  std::vector<Version> Versions;
  for (const char *T : Texts)
    Versions.push_back(v(T));
  std::sort(Versions.begin(), Versions.end());
  std::vector<VersionSet> Sets;
  for (const char *Spec : Specs) {
    Sets.push_back(set(Spec));
    Sets.push_back(Sets.back().complement());
  }
  // Sets whose bounds the specifiers never produce: single points, and
  // bounds at sentinels and at the minimum.
  for (const Version &V : Versions) {
    Sets.push_back(VersionSet::exactly(V));
    Sets.push_back(VersionSet::greaterThan(V));
    Sets.push_back(VersionSet::atMost(V));
    Sets.push_back(VersionSet::between(V.lowestOfRelease(), V.afterAllPosts()));
    Sets.push_back(VersionSet::lessThan(V.afterAllLocals()));
  }
  size_t Members = 0;
  for (const VersionSet &S : Sets) {
    std::vector<bool> In(Versions.size(), false);
    for (auto [From, To] : S.rangesIn(Versions)) {
      ASSERT_LT(From, To) << S.str();
      for (size_t K = From; K < To; ++K)
        In[K] = true;
    }
    for (size_t K = 0; K < Versions.size(); ++K) {
      const Version &V = Versions[K];
      bool Algebra = VersionSet::exactly(V).isSubsetOf(S);
      EXPECT_EQ(S.contains(V), Algebra)
          << "'" << S.str() << "' contains " << V.str();
      EXPECT_EQ(In[K], Algebra) << "'" << S.str() << "' rangesIn " << V.str();
      Members += Algebra;
    }
  }
  // Not vacuous: some versions are in, others are not.
  EXPECT_GT(Members, Sets.size());
  EXPECT_LT(Members, Sets.size() * Versions.size());
  EXPECT_TRUE(set(">=1.0").rangesIn({}).empty());
}

// subsetAndDisjoint() answers isSubsetOf() and isDisjoint() in one walk:
// the same answers for every pair of a corpus of single and multi-interval
// sets, the empty set and "any" included.
TEST(VersionSet, SubsetAndDisjointInOneWalkAgreeWithEachAlone) {
  const char *Specs[] = {"*", ">=1.0", ">1.0", "<1.0", "<=1.0", "==1.0",
                         "!=1.0", "==1.*", "!=1.*", "~=1.5", ">=1,<2,!=1.5",
                         ">2.11.post1", "<1.0.post2", "==2.11.0+cu128",
                         "!=2.11.0+cu128", ">=1!2.0", "==0.*", "<0.1",
                         "!=1.*,!=2.*", ">=1.2,<1.8"};
  std::vector<VersionSet> Base;
  for (const char *Spec : Specs) {
    Base.push_back(set(Spec));
    Base.push_back(Base.back().complement());
  }
  std::vector<VersionSet> Sets = Base;
  Sets.push_back(VersionSet::empty());
  for (size_t I = 0; I < Base.size(); I += 3)
    for (size_t J = 1; J < Base.size(); J += 5) {
      Sets.push_back(Base[I].unionWith(Base[J]));
      Sets.push_back(Base[I].intersect(Base[J]));
    }
  size_t Subsets = 0, Disjoints = 0, Neither = 0;
  for (const VersionSet &A : Sets)
    for (const VersionSet &B : Sets) {
      auto [Subset, Disjoint] = A.subsetAndDisjoint(B);
      ASSERT_EQ(Subset, A.isSubsetOf(B)) << "'" << A.str() << "' in '"
                                         << B.str() << "'";
      ASSERT_EQ(Disjoint, A.isDisjoint(B)) << "'" << A.str() << "' and '"
                                           << B.str() << "'";
      // intersect() writes its pieces without normalizing them: the same
      // set, bound for bound, as the complement of the complements' union
      // (which sorts and merges).
      ASSERT_EQ(A.intersect(B),
                A.complement().unionWith(B.complement()).complement())
          << "'" << A.str() << "' and '" << B.str() << "'";
      Subsets += Subset;
      Disjoints += Disjoint;
      Neither += !Subset && !Disjoint;
    }
  // Every outcome occurs.
  EXPECT_GT(Subsets, 0u);
  EXPECT_GT(Disjoints, 0u);
  EXPECT_GT(Neither, 0u);
}

// A set built from one interval is normalized in place; from several, by
// sorting and merging. The same interval, alone or twice, must give the
// same set: every bound of a corpus (real versions, sentinels, the minimum,
// unbounded), inclusive and exclusive, and empty intervals; and so must
// exactly() of each.
TEST(VersionSet, OneIntervalNormalizesAsSeveralDo) {
  std::vector<Bound> Bounds = {Bound{}};
  for (const char *T : {"0.dev0", "0", "1.0a1", "1.0", "1.0+local",
                        "1.0.post1", "2.11", "1!1.0"}) {
    Version V = v(T);
    for (const Version &B : {V, V.lowestOfRelease(), V.firstDevRelease(),
                             V.afterAllLocals(), V.afterAllPosts()})
      for (bool Inclusive : {true, false})
        Bounds.push_back(Bound{B, Inclusive});
  }
  size_t Empty = 0;
  for (const Bound &L : Bounds)
    for (const Bound &U : Bounds) {
      Interval I{L, U};
      VersionSet One = VersionSet::unionOf({I});
      VersionSet Twice = VersionSet::unionOf({I, I});
      EXPECT_EQ(One, Twice) << One.str() << " vs " << Twice.str();
      EXPECT_EQ(One.str(), Twice.str());
      Empty += One.isEmpty();
    }
  EXPECT_GT(Empty, 0u);
  EXPECT_LT(Empty, Bounds.size() * Bounds.size());
  // exactly() writes a real version's point as it is.
  for (const Bound &B : Bounds)
    if (B.Value) {
      Interval Point{Bound{*B.Value, true}, Bound{*B.Value, true}};
      EXPECT_EQ(VersionSet::exactly(*B.Value),
                VersionSet::unionOf({Point, Point}))
          << B.Value->str();
    }
}

// Equal sets hash alike, whatever spelling or operation made them (tables of
// sets rely on it); sets with different bounds' releases do not.
TEST(VersionSet, EqualSetsHashAlike) {
  const std::pair<const char *, const char *> Equal[] = {
      {"~=1.5", ">=1.5,==1.*"},
      {"==2.0", "==2"},
      {"==2.0", "==2.0.0"},
      {"", "*"},
      {"==0.*", "<1"},
      {"<2.11", "<2.11.dev0"},
      {">=1,<2 || >=1.5,<3", ">=1,<3"},
      {"==1.2.3.4.5.0", "==1.2.3.4.5"},
      {"==1!2.0", "==1!2"}};
  for (const auto &[A, B] : Equal) {
    ASSERT_EQ(set(A), set(B)) << A << " / " << B;
    EXPECT_EQ(set(A).hash(), set(B).hash()) << A << " / " << B;
  }
  EXPECT_EQ(set("!=2.0").hash(), set("==2.0").complement().hash());
  VersionSet Union = set(">=1,<2").unionWith(set(">=1.5,<3"));
  ASSERT_EQ(Union, set(">=1,<3"));
  EXPECT_EQ(Union.hash(), set(">=1,<3").hash());
  const char *const Distinct[] = {"*",           "==1",       "==1.1", ">=1",
                                  "<1",          ">=1,<2",    "==1!1", "!=1",
                                  "==1.2.3.4.5", "<1 || >=2", ">=2"};
  std::set<uint64_t> Hashes;
  for (const char *S : Distinct)
    Hashes.insert(set(S).hash());
  EXPECT_EQ(Hashes.size(), std::size(Distinct));
}

TEST(VersionSet, ABoundsVersionIsAnOptionalOfItsOwn) {
  // What std::optional<Version> says, in a Bound's 32 bytes.
  EXPECT_EQ(sizeof(Bound), sizeof(OptionalVersion));
  EXPECT_EQ(sizeof(Interval), 2 * sizeof(OptionalVersion));
  EXPECT_LE(sizeof(OptionalVersion), sizeof(Version) + alignof(Version));
  Version V = cantFail(Version::parse("2.4.1"));
  OptionalVersion None, Some = V, FromStd = std::optional<Version>(V),
                        FromNothing = std::optional<Version>();
  EXPECT_FALSE(None.has_value());
  EXPECT_FALSE(FromNothing);
  ASSERT_TRUE(Some.has_value());
  EXPECT_EQ(*Some, V);
  EXPECT_EQ(Some, FromStd);
  EXPECT_FALSE(Some == None);
  // None equals None whatever version it held before.
  OptionalVersion Was = V;
  Was.reset();
  EXPECT_EQ(Was, None);
  EXPECT_EQ(std::optional<Version>(Some), std::optional<Version>(V));
  EXPECT_EQ(std::optional<Version>(None), std::nullopt);
  Was.emplace(V);
  EXPECT_EQ(Was, Some);
  Was = std::nullopt;
  EXPECT_EQ(Was, None);
  // A Bound's flag beside it stays its own.
  Bound B{Some, true};
  B.Value = std::nullopt;
  EXPECT_TRUE(B.Inclusive);
  EXPECT_FALSE(B.Value);

  // The load cache's bytes are a std::optional<Version>'s, both ways.
  for (const OptionalVersion &O : {None, Some}) {
    std::optional<Version> Std = O;
    BinaryEncoder A("f"), S("f");
    A(const_cast<OptionalVersion &>(O));
    S(Std);
    std::string Bytes = A.take();
    EXPECT_EQ(Bytes, S.take());
    BinaryDecoder D(Bytes, "f");
    OptionalVersion Back = V; // overwritten, value or none
    D(Back);
    ASSERT_TRUE(D.ok());
    EXPECT_EQ(Back, O);
  }
}
