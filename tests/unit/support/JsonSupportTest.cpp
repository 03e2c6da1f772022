//===- JsonSupportTest.cpp - JSON text written as it is or escaped
//---------===//
#include "core/support/JsonSupport.h"

#include "gtest/gtest.h"

#include "llvm/Support/raw_ostream.h"

#include <random>
#include <string>

using cudadeps::isPlainJsonText;
using cudadeps::writeJsonString;

namespace {

/// The rule isPlainJsonText() reads eight bytes at a time.
bool plainByByte(const std::string &S) {
  for (char C : S)
    if (!(C >= 0x20 && C < 0x7f && C != '"' && C != '\\'))
      return false;
  return true;
}

/// Whether Same(S) holds for texts of every length up to 24 (the words and
/// the tail) of plain letters, and for those with every byte value B at
/// every place At; the first that fails is named.
template <class F> void eachByteAtEachPlace(F Same) {
  for (size_t N = 0; N <= 24; ++N) {
    std::string Base;
    for (size_t K = 0; K < N; ++K)
      Base.push_back(char('a' + K % 26));
    ASSERT_TRUE(Same(Base, 0, -1)) << "length " << N;
    for (size_t At = 0; At < N; ++At)
      for (int B = 0; B < 256; ++B) {
        std::string S = Base;
        S[At] = char(B);
        ASSERT_TRUE(Same(S, At, B))
            << "length " << N << ", byte " << B << " at " << At;
      }
  }
}

// The answer is the byte-by-byte rule's.
TEST(JsonSupport, PlainTextIsToldAsByteByByte) {
  eachByteAtEachPlace([](const std::string &S, size_t, int) {
    return isPlainJsonText(S) == plainByByte(S);
  });
  // Two unusual bytes in one word, and neighbours of the limits.
  EXPECT_FALSE(isPlainJsonText(std::string("abc\x1f\x7f"
                                           "defgh")));
  EXPECT_TRUE(isPlainJsonText(std::string(" ~ ~ ~ ~ ~ ~ ~ ~")));
  EXPECT_FALSE(isPlainJsonText(std::string("p1728 needs p0004 >=5.0.0\n")));
  EXPECT_FALSE(isPlainJsonText("caf\xc3\xa9 au lait"));
}

/// What writeJsonString() writes, and what llvm::json writes of the text
/// as a value (its invalid UTF-8 replaced, as json::Value requires).
std::string written(const std::string &S) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  writeJsonString(OS, S);
  return OS.str();
}
std::string llvmWrites(const std::string &S) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  OS << llvm::json::Value(llvm::json::isUTF8(S) ? S : llvm::json::fixUTF8(S));
  return OS.str();
}

// The same bytes as llvm::json's, with one byte changed and with another
// changed at a second place.
TEST(JsonSupport, AStringIsWrittenAsLlvmJsonWritesIt) {
  eachByteAtEachPlace([](std::string S, size_t At, int B) {
    if (written(S) != llvmWrites(S))
      return false;
    if (S.empty() || B < 0)
      return true;
    S[(At * 7 + 3) % S.size()] = char(255 - B);
    return written(S) == llvmWrites(S);
  });
  EXPECT_EQ(written("a \"b\"\n\t\r\\ \x01\x1f\x7f"),
            "\"a \\\"b\\\"\\n\\t\\r\\\\ \\u0001\\u001f\x7f\"");
  EXPECT_EQ(written("caf\xc3\xa9\nau lait"), "\"caf\xc3\xa9\\nau lait\"");
}

// Long texts as the reasons are (lines joined by newlines, some UTF-8, a
// few invalid bytes): the same bytes as llvm::json's.
TEST(JsonSupport, LongTextsAreWrittenAsLlvmJsonWritesThem) {
  std::mt19937 Rng(11);
  const std::string Pieces[] = {"p0001 needs p0002 >=1.0.0,<2.0.0",
                                "\n",
                                "\"",
                                "\\",
                                "\t",
                                "\xe2\x80\x94",
                                "\xff",
                                "\x7f",
                                "\x01",
                                " or ",
                                "\xc3"};
  for (int Round = 0; Round < 2000; ++Round) {
    std::string S;
    for (unsigned K = Rng() % 40; K > 0; --K)
      S += Pieces[Rng() % std::size(Pieces)];
    ASSERT_EQ(written(S), llvmWrites(S)) << "round " << Round;
  }
}

} // namespace
