//===- JsonSupportTest.cpp - JSON text written as it is or escaped
//---------===//
#include "core/support/JsonSupport.h"

#include "gtest/gtest.h"

#include <string>

using cudadeps::isPlainJsonText;

namespace {

/// The rule isPlainJsonText() reads eight bytes at a time.
bool plainByByte(const std::string &S) {
  for (char C : S)
    if (!(C >= 0x20 && C < 0x7f && C != '"' && C != '\\'))
      return false;
  return true;
}

// Every byte value at every place of texts of every length up to 24 (the
// words and the tail): the answer is the byte-by-byte rule's.
TEST(JsonSupport, PlainTextIsToldAsByteByByte) {
  for (size_t N = 0; N <= 24; ++N) {
    std::string Base;
    for (size_t K = 0; K < N; ++K)
      Base.push_back(char('a' + K % 26));
    EXPECT_TRUE(isPlainJsonText(Base)) << N;
    for (size_t At = 0; At < N; ++At)
      for (int B = 0; B < 256; ++B) {
        std::string S = Base;
        S[At] = char(B);
        ASSERT_EQ(isPlainJsonText(S), plainByByte(S))
            << "length " << N << ", byte " << B << " at " << At;
      }
  }
  // Two unusual bytes in one word, and neighbours of the limits.
  EXPECT_FALSE(isPlainJsonText(std::string("abc\x1f\x7f"
                                           "defgh")));
  EXPECT_TRUE(isPlainJsonText(std::string(" ~ ~ ~ ~ ~ ~ ~ ~")));
  EXPECT_FALSE(isPlainJsonText(std::string("p1728 needs p0004 >=5.0.0\n")));
  EXPECT_FALSE(isPlainJsonText("caf\xc3\xa9 au lait"));
}

} // namespace
