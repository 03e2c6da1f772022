//===- VersionTest.cpp - parsing, normalization and ordering of Version ---===//

#include "core/version/Version.h"
#include "core/support/BinaryCodec.h"
#include "tests/unit/version/Printers.h"

#include "llvm/Support/Error.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

using namespace cudadeps;

namespace {

Version v(llvm::StringRef Text) {
  auto V = Version::parse(Text);
  if (!V) {
    ADD_FAILURE() << "cannot parse '" << Text.str()
                  << "': " << llvm::toString(V.takeError());
    return Version();
  }
  return *V;
}

std::string parseError(llvm::StringRef Text) {
  auto V = Version::parse(Text);
  if (V)
    return "parsed as " + V->str();
  return llvm::toString(V.takeError());
}

struct NormCase {
  const char *Input;
  const char *Canonical;
};

TEST(VersionParse, NormalizesToCanonicalText) {
  const NormCase Cases[] = {
      // PEP 440 forms.
      {"2.11.0+cu128", "2.11.0+cu128"},
      {"1.5.0.post8", "1.5.0.post8"},
      {"3.0.0rc1", "3.0.0rc1"},
      {"v1.2", "1.2"},
      {"V1.2", "1.2"},
      {"1.0.dev3", "1.0.dev3"},
      {"1!2.0", "1!2.0"},
      {"0!1.0", "1.0"},
      // Toolchain dotted forms keep their segments as written.
      {"12.8.93", "12.8.93"},
      {"12.8", "12.8"},
      {"13.0", "13.0"},
      {"12.2.0", "12.2.0"},
      {"570.86.15", "570.86.15"},
      {"12", "12"},
      // Spelling variants.
      {"1.0ALPHA1", "1.0a1"},
      {"1.0-alpha.1", "1.0a1"},
      {"1.0_beta_2", "1.0b2"},
      {"1.0.b2", "1.0b2"},
      {"1.0c1", "1.0rc1"},
      {"1.0pre1", "1.0rc1"},
      {"1.0preview1", "1.0rc1"},
      {"1.0-RC-3", "1.0rc3"},
      {"1.0a", "1.0a0"},
      {"1.0-1", "1.0.post1"},
      {"1.0rev2", "1.0.post2"},
      {"1.0.r", "1.0.post0"},
      {"1.0post", "1.0.post0"},
      {"1.0-post-4", "1.0.post4"},
      {"1.0-dev", "1.0.dev0"},
      {"1.0dev5", "1.0.dev5"},
      {"1.0a1.post2.dev3", "1.0a1.post2.dev3"},
      {"1.0+Ubuntu_1-A", "1.0+ubuntu.1.a"},
      {"1.0+007", "1.0+7"},
      {"1.0+abc.000", "1.0+abc.0"},
      {"01.002.0003", "1.2.3"},
      {"  1.0\t", "1.0"},
      {"18446744073709551615", "18446744073709551615"},
  };
  for (const NormCase &C : Cases) {
    SCOPED_TRACE(C.Input);
    auto V = Version::parse(C.Input);
    ASSERT_TRUE(static_cast<bool>(V)) << llvm::toString(V.takeError());
    EXPECT_EQ(V->str(), C.Canonical);
    // The canonical text reads back to the same version and text.
    EXPECT_EQ(v(V->str()), *V);
    EXPECT_EQ(v(V->str()).str(), C.Canonical);
  }
}

TEST(VersionParse, Components) {
  Version Torch = v("2.11.0+cu128");
  EXPECT_EQ(Torch.release().vec(), (std::vector<uint64_t>{2, 11, 0}));
  EXPECT_EQ(Torch.local(), "cu128");
  EXPECT_FALSE(Torch.isPrerelease());
  EXPECT_EQ(Torch.withoutLocal().str(), "2.11.0");

  Version Nvcc = v("12.8.93");
  EXPECT_EQ(Nvcc.major(), 12u);
  EXPECT_EQ(Nvcc.minor(), 8u);
  EXPECT_EQ(Nvcc.patch(), 93u);
  EXPECT_EQ(Nvcc.segment(7), 0u);

  Version Driver = v("570.86.15");
  EXPECT_EQ(Driver.major(), 570u);
  EXPECT_EQ(Driver.patch(), 15u);

  Version Rc = v("3.0.0rc1");
  ASSERT_TRUE(Rc.pre().has_value());
  EXPECT_EQ(Rc.pre()->first, Version::PreKind::RC);
  EXPECT_EQ(Rc.pre()->second, 1u);
  EXPECT_TRUE(Rc.isPrerelease());

  Version Post = v("1.5.0.post8");
  EXPECT_EQ(Post.post(), std::optional<uint64_t>(8));
  EXPECT_FALSE(Post.isPrerelease());

  Version Dev = v("1.0.dev3");
  EXPECT_EQ(Dev.dev(), std::optional<uint64_t>(3));
  EXPECT_TRUE(Dev.isPrerelease());

  EXPECT_EQ(v("2!1.0").epoch(), 2u);
  EXPECT_EQ(Version({12, 8}).str(), "12.8");
  EXPECT_EQ(Version(std::vector<uint64_t>{}).str(), "0");
}

/// Every pair of \p Texts (strictly ascending) compares as their positions
/// do, and so does each version as withEpoch() rebuilds it (its key made
/// again).
void expectAscending(llvm::ArrayRef<const char *> Texts) {
  std::vector<Version> Vs;
  for (const char *T : Texts)
    Vs.push_back(v(T));
  for (size_t I = 0; I < Vs.size(); ++I)
    for (size_t J = 0; J < Vs.size(); ++J) {
      SCOPED_TRACE(std::string(Texts[I]) + " vs " + Texts[J]);
      EXPECT_EQ(Vs[I] <=> Vs[J], I <=> J);
      EXPECT_EQ(Vs[I] == Vs[J], I == J);
      EXPECT_EQ(Vs[I].withEpoch(Vs[I].epoch()) <=> Vs[J], I <=> J);
    }
}

TEST(VersionOrder, Pep440Examples) {
  // The ordering example of PEP 440 ("Summary of permitted suffixes and
  // relative ordering"), extended with local labels and epochs.
  const char *Ordered[] = {"1.dev0",
                           "1.0.dev456",
                           "1.0a1",
                           "1.0a2.dev456",
                           "1.0a12.dev456",
                           "1.0a12",
                           "1.0b1.dev456",
                           "1.0b2",
                           "1.0b2.post345.dev456",
                           "1.0b2.post345",
                           "1.0rc1.dev456",
                           "1.0rc1",
                           "1.0",
                           "1.0+abc",
                           "1.0+abc.5",
                           "1.0+abc.7",
                           "1.0+5",
                           "1.0+10",
                           "1.0.post456.dev34",
                           "1.0.post456",
                           "1.0.post456+x",
                           "1.0.15",
                           "1.1.dev1",
                           "1.1",
                           "12.8",
                           "12.8.93",
                           "13.0",
                           "570.86.15",
                           "1!0.1",
                           "1!1.0"};
  expectAscending(Ordered);
}

TEST(VersionOrder, TrailingZerosAndEquivalentSpellings) {
  EXPECT_EQ(v("12.8"), v("12.8.0"));
  EXPECT_EQ(v("1"), v("1.0.0.0"));
  EXPECT_EQ(v("1.0a1"), v("1.0.0alpha1"));
  EXPECT_EQ(v("1.0+007"), v("1.0+7"));
  EXPECT_EQ(v("0!1.0"), v("1.0"));
  EXPECT_LT(v("12.8"), v("12.8.0.1"));
  EXPECT_LT(v("2.11.0"), v("2.11.0+cu128"));
  EXPECT_LT(v("2.11.0+cu126"), v("2.11.0+cu128"));
  // Numeric local segments compare as numbers; alphanumeric ones as text
  // (PEP 440), so "cu10" sorts before "cu9".
  EXPECT_LT(v("1.0+9"), v("1.0+10"));
  EXPECT_LT(v("1.0+cu10"), v("1.0+cu9"));
  EXPECT_LT(v("1.0+abc"), v("1.0+abc.1"));
  EXPECT_LT(v("1.0+zzz"), v("1.0+0"));
  // Large numbers compare correctly.
  EXPECT_LT(v("18446744073709551614"), v("18446744073709551615"));
}

// Versions whose epoch and release fit the packed key compare by it; the
// rest part by part. Each pair straddles a limit of the key (epoch 127,
// segments 65535, three segments), in both directions, and every list is
// sorted whichever way each of its pairs is compared.
TEST(VersionOrder, PackedAndUnpackedVersionsOrderAlike) {
  const char *const Ascending[] = {"0.dev0",
                                   "0",
                                   "0.0.1",
                                   "1",
                                   "1.0.0.0.1",
                                   "1.0.1",
                                   "1.2.65535",
                                   "1.2.65535.1",
                                   "1.2.65536",
                                   "1.65535",
                                   "1.65536",
                                   "65535",
                                   "65535.0.0.1",
                                   "65536",
                                   "70000.1",
                                   "1!0",
                                   "1!1.2.3",
                                   "127!0",
                                   "127!65535.65535.65535",
                                   "127!65535.65535.65535.1",
                                   "128!0",
                                   "128!1",
                                   "1000!2.0",
                                   "18446744073709551615!1"};
  expectAscending(Ascending);
  // Equal keys leave the rest to the parts.
  EXPECT_LT(v("1.2rc1"), v("1.2"));
  EXPECT_LT(v("1.2"), v("1.2.post1"));
  EXPECT_LT(v("1.2.dev3"), v("1.2a1"));
  EXPECT_EQ(v("1.2"), v("1.2.0"));
  EXPECT_LT(v("1.2"), v("1.2+local"));
  EXPECT_LT(v("3!1.2rc1"), v("3!1.2"));
  EXPECT_LT(v("300!1.2rc1"), v("300!1.2"));
  // Versions made from others carry their own key.
  EXPECT_EQ(v("1.2.3").truncated(2), v("1.2"));
  EXPECT_LT(v("1.2.3").truncated(2), v("1.2.3"));
  EXPECT_GT(v("1.65535.3").bumped(1), v("1.65535.99"));
  EXPECT_GT(v("1.65535").bumped(1), v("1.65535.70000"));
  EXPECT_EQ(v("1.2").withEpoch(200), v("200!1.2"));
  EXPECT_GT(v("1.2").withEpoch(200), v("127!1.2"));
  EXPECT_EQ(Version({1, 2, 0, 0}), v("1.2"));
  EXPECT_LT(Version(), v("0.0.1"));
  EXPECT_EQ(Version(), v("0"));
}

TEST(VersionOrder, PackedTailsAndSharedPartsOrderAlike) {
  // Pre, post and dev numbers below 65536, at most seven release numbers
  // and no local label are held in a version itself; the rest in parts its
  // copies share. Every boundary between the two, in order.
  const char *const Ascending[] = {"1.0.dev65535",
                                   "1.0.dev65536",
                                   "1.0a65535.dev1",
                                   "1.0a65535",
                                   "1.0a65536.dev0",
                                   "1.0a65536",
                                   "1.0b0",
                                   "1.0rc65536",
                                   "1.0",
                                   "1.0+abc.65536",
                                   "1.0+1",
                                   "1.0.post0",
                                   "1.0.post65535.dev65536",
                                   "1.0.post65535",
                                   "1.0.post65535+x",
                                   "1.0.post65536.dev0",
                                   "1.0.post65536",
                                   "1.0.0.0.0.0.0.0.1",
                                   "1.0.0.0.0.0.0.1",
                                   "1.0.1"};
  expectAscending(Ascending);
  // Equal across the two forms: equal hashes, the same text back.
  EXPECT_EQ(v("1.2.0.0.0.0.0.0.0"), v("1.2"));
  EXPECT_EQ(v("1.2.0.0.0.0.0.0.0").hash(), v("1.2").hash());
  for (const char *Text : Ascending) {
    Version V = v(Text);
    EXPECT_EQ(V.str(), Text);
    Version Copy = V;
    EXPECT_EQ(Copy, V);
    EXPECT_EQ(Copy.str(), V.str());
    EXPECT_EQ(v(V.str()), V);
    // Moved into a large epoch and back: the same version.
    Version Far = V.withEpoch(1000);
    EXPECT_EQ(Far.epoch(), 1000u);
    EXPECT_GT(Far, V);
    EXPECT_EQ(Far.withEpoch(0), V);
    EXPECT_EQ(Far.withEpoch(0).str(), V.str());
  }
  // The parts read back from either form.
  EXPECT_EQ(v("1.0.post70000").post(), std::optional<uint64_t>(70000));
  EXPECT_EQ(v("1.0.post7").post(), std::optional<uint64_t>(7));
  EXPECT_EQ(v("1.0.dev65536").dev(), std::optional<uint64_t>(65536));
  EXPECT_EQ(v("1.0rc65536").pre(), std::make_optional(std::make_pair(
                                       Version::PreKind::RC, uint64_t(65536))));
  EXPECT_EQ(v("1.2.3.4.5.6.7.8").release().vec(),
            (std::vector<uint64_t>{1, 2, 3, 4, 5, 6, 7, 8}));
  EXPECT_EQ(v("1.2.3.4.5.6.7.8").segment(7), 8u);
  EXPECT_EQ(v("1.2.3.0").release().vec(), (std::vector<uint64_t>{1, 2, 3, 0}));
  EXPECT_EQ(v("1.2.3.0").segment(5), 0u);
  EXPECT_EQ(v("2.11.0+cu128").withoutLocal(), v("2.11.0"));
  EXPECT_EQ(v("2.11.0+cu128").withoutLocal().str(), "2.11.0");
  EXPECT_TRUE(v("0.dev0").isMinimum());
  EXPECT_TRUE(v("0.0.0.0.0.0.0.0.dev0").isMinimum());
  EXPECT_FALSE(v("0.dev1").isMinimum());
  EXPECT_FALSE(v("0.dev0+x").isMinimum());
  EXPECT_FALSE(v("1!0.dev0").isMinimum());
}

TEST(VersionHelpers, SentinelsSortWhereSpecifiersNeedThem) {
  Version V = v("2.11");
  Version AfterLocals = V.afterAllLocals();
  EXPECT_FALSE(AfterLocals.isSentinel());
  EXPECT_EQ(AfterLocals.str(), "2.11.post0.dev0");
  EXPECT_LT(v("2.11+zzz.999"), AfterLocals);
  EXPECT_LT(AfterLocals, v("2.11.post0"));

  Version AfterPosts = V.afterAllPosts();
  EXPECT_TRUE(AfterPosts.isSentinel());
  EXPECT_TRUE(AfterPosts.isAfterAllPosts());
  EXPECT_EQ(AfterPosts.sentinelBase(), V);
  EXPECT_LT(v("2.11.post99999+x"), AfterPosts);
  EXPECT_LT(AfterPosts, v("2.11.0.0.1"));
  EXPECT_LT(AfterPosts, v("2.12.dev0"));
  EXPECT_EQ(v("2.11.0").afterAllPosts(), AfterPosts);

  // For a pre-release the least version above its posts is real.
  EXPECT_EQ(v("1.0a1").afterAllPosts().str(), "1.0a2.dev0");
  EXPECT_EQ(v("1.0a1.post3").afterAllPosts().str(), "1.0a2.dev0");
  EXPECT_EQ(v("1.0.dev3").afterAllLocals().str(), "1.0.dev4");
  EXPECT_EQ(v("1.0.post3+x").afterAllLocals().str(), "1.0.post4.dev0");

  EXPECT_EQ(v("12.8.93").truncated(2).str(), "12.8");
  EXPECT_EQ(v("12").truncated(3).str(), "12.0.0");
  EXPECT_EQ(v("12.8rc1+x").truncated(2).str(), "12.8");
  EXPECT_EQ(v("12.8").bumped(0).str(), "13.dev0");
  EXPECT_EQ(v("12.8").bumped(1).str(), "12.9.dev0");
  EXPECT_EQ(v("1!12.8").bumped(0).str(), "1!13.dev0");
  EXPECT_EQ(v("12.8.1rc1").lowestOfRelease().str(), "12.8.1.dev0");
  EXPECT_EQ(v("12.8").firstDevRelease().str(), "12.8.dev0");
  EXPECT_EQ(v("12.8.post2").firstDevRelease().str(), "12.8.post2.dev0");
  EXPECT_LT(v("12.8.dev0"), v("12.8a0"));
  EXPECT_TRUE(v("0.dev0").isMinimum());
  EXPECT_TRUE(v("0.0.dev0").isMinimum());
  EXPECT_FALSE(v("0").isMinimum());
}

TEST(VersionHelpers, NoOverflowAtTheLargestNumbers) {
  // Bumping a segment at the 64-bit limit carries into the one before it:
  // no 1.<MAX+1> exists, so every 1.<MAX>.* version sorts below 2.dev0.
  EXPECT_EQ(v("1.18446744073709551615").bumped(1).str(), "2.dev0");
  EXPECT_EQ(v("18446744073709551615").bumped(0).str(), "1!0.dev0");
  Version Top = v("18446744073709551615!18446744073709551615");
  EXPECT_LT(Top, Top.bumped(0));
  Version DevMax = v("1.0.dev18446744073709551615");
  EXPECT_LT(v("1.0.dev18446744073709551615+x"), DevMax.afterAllLocals());
  EXPECT_LT(DevMax.afterAllLocals(), v("1.0a0"));
  Version PostMax = v("1.0.post18446744073709551615");
  EXPECT_LT(v("1.0.post18446744073709551615+x"), PostMax.afterAllLocals());
  EXPECT_LT(PostMax.afterAllLocals(), v("1.0.1"));
}

struct ErrorCase {
  std::string Input;
  const char *Message;
};

TEST(VersionParse, ErrorsSayWhatWasExpected) {
  const ErrorCase Cases[] = {
      {"", "invalid version '': expected a version such as '1.2.3' or "
           "'2.11.0+cu128'"},
      {"   ", "invalid version '   ': expected a version"},
      {"abc", "invalid version 'abc': expected a release number such as "
              "'1.2' at the start"},
      {"v", "invalid version 'v': expected a release number"},
      {".1", "invalid version '.1': expected a release number"},
      {"1.2x", "invalid version '1.2x': expected a pre-release (a1, b2, "
               "rc1), '.postN', '.devN' or a local label ('+cu128') after "
               "'1.2', found 'x'"},
      {"1..2", "after '1', found '..2'"},
      {"1.", "after '1', found '.'"},
      {"1.0 2.0", "found ' 2.0'"},
      {"1.0-", "found '-'"},
      {"1!", "invalid version '1!': expected a release number after the "
             "epoch '1!'"},
      {"1.0+", "invalid version '1.0+': expected a local label of letters "
               "and digits such as '+cu128' at the end"},
      {"1.0+a..b", "expected a local label"},
      {"1.0+cu128+x", "after '1.0+cu128', found '+x'"},
      {"1.0.*", "found '.*'"},
      {"99999999999999999999999",
       "invalid version '99999999999999999999999': number "
       "'99999999999999999999999' does not fit in 64 bits"},
      {"18446744073709551616", "does not fit in 64 bits"},
      {"1.0.post18446744073709551616", "does not fit in 64 bits"},
      {std::string("1.0\0", 4), "invalid version '1.0\\x00': "},
      {"1.0\xff", "invalid version '1.0\\xff': "},
      {"1.0\n2", "invalid version '1.0\\x0a2': "},
  };
  for (const ErrorCase &C : Cases) {
    SCOPED_TRACE(C.Input);
    std::string Msg = parseError(C.Input);
    EXPECT_NE(Msg.find(C.Message), std::string::npos) << Msg;
    EXPECT_EQ(Msg.rfind("invalid version '", 0), 0u) << Msg;
  }
}

TEST(VersionParse, HugeInputIsRefusedWithAShortMessage) {
  std::string Huge(100 * 1024, '1');
  std::string Msg = parseError(Huge);
  EXPECT_NE(Msg.find("expected at most 256 characters, got 102400"),
            std::string::npos)
      << Msg;
  EXPECT_LT(Msg.size(), 200u);

  std::string Dotted;
  for (int I = 0; I < 50000; ++I)
    Dotted += "1.";
  Dotted += "1";
  EXPECT_NE(parseError(Dotted).find("expected at most"), std::string::npos);
}

TEST(VersionParse, EveryByteIsHandled) {
  for (int B = 0; B < 256; ++B) {
    char C = static_cast<char>(B);
    for (std::string Text :
         {std::string(1, C), "1.0" + std::string(1, C),
          std::string(1, C) + "1.0", "1" + std::string(1, C) + "0",
          "1.0+" + std::string(1, C)}) {
      SCOPED_TRACE(B);
      auto V = Version::parse(Text);
      if (!V) {
        std::string Msg = llvm::toString(V.takeError());
        EXPECT_EQ(Msg.rfind("invalid version '", 0), 0u) << Msg;
        // The message is printable text.
        for (char M : Msg)
          EXPECT_TRUE(M >= 0x20 && M < 0x7f) << Msg;
        continue;
      }
      // Whatever parses has canonical text that parses back to it.
      EXPECT_EQ(v(V->str()), *V);
    }
  }
}

TEST(VersionParse, RandomGarbageNeverCrashes) {
  std::mt19937 Rng(440);
  const std::string Alphabet = "0123456789.-_+!vVabcrpostdevlhxyz \t*";
  for (int I = 0; I < 20000; ++I) {
    std::string Text;
    int Len = Rng() % 16;
    for (int J = 0; J < Len; ++J)
      Text += (Rng() % 4 == 0) ? static_cast<char>(Rng() % 256)
                               : Alphabet[Rng() % Alphabet.size()];
    auto V = Version::parse(Text);
    if (!V) {
      std::string Msg = llvm::toString(V.takeError());
      ASSERT_EQ(Msg.rfind("invalid version '", 0), 0u) << Msg;
      continue;
    }
    auto Back = Version::parse(V->str());
    ASSERT_TRUE(static_cast<bool>(Back)) << Text;
    EXPECT_EQ(*Back, *V) << Text;
    EXPECT_EQ(Back->str(), V->str()) << Text;
  }
}

} // namespace

// A version whose canonical text outgrows the length limit ("c" becomes
// "rc0") is refused, so every version written reads back (found by fuzzing).
TEST(VersionLimits, CanonicalTextStaysWithinTheLimit) {
  std::string Text = "4.1c+" + std::string(250, 'm');
  ASSERT_LE(Text.size(), 256u);
  auto V = cudadeps::Version::parse(Text);
  ASSERT_FALSE(bool(V));
  EXPECT_NE(llvm::toString(V.takeError()).find("canonical form"),
            std::string::npos);
}

// A release of more than four numbers is held apart from the inline ones:
// copies, moves, arithmetic and the load cache's form keep every number.
TEST(VersionRelease, LongReleasesSurviveCopiesMovesAndTheCache) {
  Version Long = v("1.2.3.4.5.6.7");
  Version Copy = Long;
  EXPECT_EQ(Copy.str(), "1.2.3.4.5.6.7");
  Version Moved = std::move(Copy);
  EXPECT_EQ(Moved.str(), "1.2.3.4.5.6.7");
  Version Short = v("9.8");
  Short = Moved; // a long one over an inline one
  EXPECT_EQ(Short.str(), "1.2.3.4.5.6.7");
  Short = v("9.8"); // and back
  EXPECT_EQ(Short.str(), "9.8");
  EXPECT_EQ(Short.release().size(), 2u);
  EXPECT_LT(Long, v("1.2.3.4.5.6.8"));
  EXPECT_GT(Long, v("1.2.3.4.5.6"));
  EXPECT_EQ(v("1.2.3.4.5.6.7.0.0"), Long);
  EXPECT_EQ(Long.truncated(5).str(), "1.2.3.4.5");
  EXPECT_EQ(Long.truncated(9).str(), "1.2.3.4.5.6.7.0.0");
  EXPECT_EQ(Long.bumped(5).str(), "1.2.3.4.5.7.dev0");
  EXPECT_EQ(v("1.2.3").bumped(5).str(), "1.2.3.0.0.1.dev0");
  EXPECT_EQ(Version({1, 2, 3, 4, 5}).release().back(), 5u);

  std::vector<Version> Many(50, Long); // a vector's growth moves them
  Many.push_back(v("2.0"));
  for (size_t I = 0; I + 1 < Many.size(); ++I)
    ASSERT_EQ(Many[I].str(), "1.2.3.4.5.6.7");

  // Decoded as parsed, packed or not: the packed forms the decoder makes
  // at once (a short release, a post or dev number), and those it hands
  // on (a number too large to pack, a fourth one, a pre-release, an epoch,
  // a local label, a sentinel). Equal versions hash alike.
  std::vector<Version> RoundTrip;
  for (const char *Text :
       {"1.2.3.4.5.6.7", "1.2", "0", "3!1.2.3.4.5rc1.post2", "1.2.3",
        "1.2.post3", "1.2.dev4", "1.2.post3.dev4", "1.0.0.0", "65536.1",
        "1.70000", "1.2.3.4", "1.2.post70000", "1.2.dev70000", "1.2rc1",
        "1!2.0", "1.2+cu128"})
    RoundTrip.push_back(v(Text));
  RoundTrip.push_back(v("2.11").afterAllPosts());
  RoundTrip.push_back(v("2.11").afterAllLocals());
  RoundTrip.push_back(v("2.11").lowestOfRelease());
  for (const Version &In : RoundTrip) {
    Version Out = v("9.9.9+x"); // overwritten whole
    BinaryEncoder E("f");
    E(const_cast<Version &>(In));
    std::string Bytes = E.take();
    BinaryDecoder D(Bytes, "f");
    D(Out);
    ASSERT_TRUE(D.ok()) << In.str();
    EXPECT_EQ(Out.str(), In.str());
    EXPECT_EQ(Out, In) << In.str();
    EXPECT_EQ(Out.hash(), In.hash()) << In.str();
    EXPECT_EQ(Out.isSentinel(), In.isSentinel()) << In.str();
  }
}

// The versions of one release that version sets' bounds are made of (dev
// releases, the release, the sentinel after its posts) order among
// themselves and against every other kind as PEP 440 says.
TEST(VersionOrder, ReleasesDevReleasesAndSentinelsOfOneRelease) {
  std::vector<Version> Vs;
  for (const char *T : {"2.10.post3", "2.11.dev0", "2.11.dev3", "2.11a1.dev1",
                        "2.11a1", "2.11rc2.post1", "2.11", "2.11+x",
                        "2.11.post0.dev0", "2.11.post1", "2.11.post1+y"})
    Vs.push_back(v(T));
  Vs.push_back(v("2.11").afterAllPosts());
  Vs.push_back(v("2.11.0.1.dev0"));
  Vs.push_back(v("2.12.dev0"));
  for (size_t I = 0; I < Vs.size(); ++I)
    for (size_t J = 0; J < Vs.size(); ++J) {
      SCOPED_TRACE(std::to_string(I) + " vs " + std::to_string(J));
      EXPECT_EQ(Vs[I] <=> Vs[J], I <=> J);
    }
  EXPECT_EQ(v("2.11.dev3"), v("2.11.0.dev3"));
  EXPECT_EQ(v("2.11").afterAllPosts(), v("2.11.0").afterAllPosts());
  EXPECT_LT(v("2.11.dev3"), v("2.11.0.dev4"));
}
