// Boxed<T>: an optional kept on the heap, which copies deeply and is
// encoded byte for byte as the std::optional it stands for.
#include "core/support/BinaryCodec.h"
#include "core/support/Boxed.h"

#include <gtest/gtest.h>

using namespace cudadeps;

namespace {

TEST(Boxed, ReadsAsAnOptionalAndCopiesDeeply) {
  Boxed<std::string> None;
  EXPECT_FALSE(None);
  EXPECT_FALSE(Boxed<std::string>(std::optional<std::string>()));
  Boxed<std::string> A(std::string("matrix"));
  ASSERT_TRUE(A);
  Boxed<std::string> B = A;
  *B += "!";
  EXPECT_EQ(*A, "matrix");
  EXPECT_EQ(*B, "matrix!");
  EXPECT_EQ(B->size(), 7u);
  A = B;
  EXPECT_EQ(*A, "matrix!");
  Boxed<std::string> C = std::move(B);
  EXPECT_EQ(*C, "matrix!");
  C = std::optional<std::string>();
  EXPECT_FALSE(C);
  C.emplace() = "x";
  EXPECT_EQ(*C, "x");
  C.reset();
  EXPECT_FALSE(C.has_value());
}

TEST(Boxed, IsEncodedAsTheOptionalItStandsFor) {
  for (std::optional<std::string> O :
       {std::optional<std::string>(), std::optional<std::string>("v")}) {
    Boxed<std::string> X(O);
    BinaryEncoder EO("f"), EX("f");
    EO(O);
    EX(X);
    std::string Bytes = EO.take();
    EXPECT_EQ(EX.take(), Bytes);
    BinaryDecoder D(Bytes, "f");
    Boxed<std::string> Back(std::string("stale"));
    D(Back);
    ASSERT_TRUE(D.ok());
    EXPECT_EQ(bool(Back), bool(O));
    if (O)
      EXPECT_EQ(*Back, *O);
  }
}

} // namespace
