//===- EncodingTest.cpp - strategies and compiler families as epochs ------===//
#include "core/plan/FactProvider.h"

#include <gtest/gtest.h>

using namespace cudadeps;
using namespace cudadeps::encoding;

namespace {

VersionSet spec(llvm::StringRef S) {
  auto R = VersionSet::parse(S);
  EXPECT_TRUE(bool(R)) << S.str();
  if (!R) {
    llvm::consumeError(R.takeError());
    return VersionSet::empty();
  }
  return *R;
}

Version ver(llvm::StringRef S) {
  auto V = Version::parse(S);
  EXPECT_TRUE(bool(V)) << S.str();
  if (!V) {
    llvm::consumeError(V.takeError());
    return Version();
  }
  return *V;
}

/// lift() by its definition, one set operation per bound: each interval's
/// bounds moved into epoch E, the result cut to epoch E.
VersionSet liftByDefinition(const VersionSet &R, uint64_t E) {
  VersionSet Out;
  for (const Interval &I : R.intervals()) {
    VersionSet Lo = !I.Lower.Value ? VersionSet::atLeast(epochStart(E))
                    : I.Lower.Inclusive
                        ? VersionSet::atLeast(I.Lower.Value->withEpoch(E))
                        : VersionSet::greaterThan(I.Lower.Value->withEpoch(E));
    VersionSet Hi = !I.Upper.Value ? VersionSet::lessThan(epochStart(E + 1))
                    : I.Upper.Inclusive
                        ? VersionSet::atMost(I.Upper.Value->withEpoch(E))
                        : VersionSet::lessThan(I.Upper.Value->withEpoch(E));
    Out = Out.unionWith(Lo.intersect(Hi));
  }
  return Out.intersect(epochRange(E));
}

const char *const Specs[] = {
    "*",          ">=2.4,<3",  "==12.8",    "==12.*",      "!=2.0",
    ">2.11",      "<=2.11",    "<2.11",     "~=1.5",       ">=0",
    "<0.1",       "==0.*",     ">=1.0a1",   "!=1.*,!=3.*", "<1 || >=3",
    "==2.11.0+cu128", ">=1.5.0.post8", "<=2.0,!=2.0",
};

TEST(Encoding, LiftIsTheSetMovedIntoTheEpoch) {
  for (const char *S : Specs) {
    VersionSet R = spec(S);
    for (uint64_t E : {uint64_t(0), uint64_t(1), uint64_t(2)}) {
      VersionSet L = lift(R, E);
      EXPECT_EQ(L, liftByDefinition(R, E)) << S << " in epoch " << E;
      EXPECT_EQ(lift(VersionSet(R), E), L) << S << " moved, in epoch " << E;
      EXPECT_TRUE(L.isSubsetOf(epochRange(E))) << S;
      for (const char *V : {"0", "0.dev0", "1.0", "1.5.1", "2.0", "2.0rc1",
                            "2.11", "2.11.post1", "2.11.0+cu128", "3.0",
                            "12.8.93", "13"})
        EXPECT_EQ(L.contains(ver(V).withEpoch(E)), R.contains(ver(V)))
            << S << " " << V << " in epoch " << E;
    }
  }
}

TEST(Encoding, LiftTwiceIsTheUnionOfBothLifts) {
  for (const char *S : Specs) {
    VersionSet R = spec(S);
    EXPECT_EQ(liftTwice(R, PrebuiltEpoch, SourceEpoch),
              lift(R, PrebuiltEpoch).unionWith(lift(R, SourceEpoch)))
        << S;
    // Epochs that are not adjacent take the general way.
    EXPECT_EQ(liftTwice(R, 0, 2), lift(R, 0).unionWith(lift(R, 2))) << S;
    EXPECT_EQ(liftTwice(R, 1, 2), lift(R, 1).unionWith(lift(R, 2))) << S;
  }
}

TEST(Encoding, LiftOfTheEmptySetIsEmpty) {
  EXPECT_TRUE(lift(VersionSet::empty(), 1).isEmpty());
  EXPECT_TRUE(liftTwice(VersionSet::empty(), 0, 1).isEmpty());
  EXPECT_TRUE(liftTwice(VersionSet::empty(), 0, 2).isEmpty());
}

} // namespace
