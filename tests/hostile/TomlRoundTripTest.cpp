//===- TomlRoundTripTest.cpp - probe --format toml reads back -------------===//
//
// `probe --format toml` writes a comment naming the source of each fact; a
// --set value or a probed path may hold control characters, DEL or bytes
// that are not UTF-8, which TOML does not allow in comments. The output
// must hold none of them raw and must read back as a facts file.
//
//===----------------------------------------------------------------------===//
#include "tests/support/FakeToolkit.h"
#include "tests/support/RunCli.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace cudadeps::test;
using ::testing::HasSubstr;

namespace {

const std::string Scenarios = CUDADEPS_FIXTURES_DIR "/scenarios";

/// The first raw control character (other than newline) or invalid UTF-8
/// byte in \p Text, as "offset N: 0xHH"; "" when there is none.
std::string firstRawByte(const std::string &Text) {
  for (size_t I = 0; I < Text.size(); ++I) {
    unsigned char C = static_cast<unsigned char>(Text[I]);
    if ((C < 0x20 && C != '\n') || C == 0x7f || C == 0xff || C == 0xfe)
      return "offset " + std::to_string(I) + ": " + std::to_string(C);
  }
  return {};
}

void expectReadsBack(const TempDir &T, const RunResult &R) {
  ASSERT_EQ(R.Code, 0) << R.Err;
  EXPECT_EQ(firstRawByte(R.Out), "") << R.Out;
  std::string Back = T.sub("back.toml");
  ASSERT_TRUE(writeFile(Back, R.Out));
  RunResult Again = runCudadeps({"probe", "--facts", Back, "--format", "toml"},
                                {{"CUDADEPS_FACTS", ""}});
  EXPECT_EQ(Again.Code, 0) << Again.Err << "\n--- the file:\n" << R.Out;
}

TEST(TomlRoundTrip, SetValuesWithControlBytesReadBack) {
  TempDir T;
  ASSERT_TRUE(T.ok());
  RunResult R =
      runCudadeps({"probe", "--facts", Scenarios + "/nvcc13-driver128.toml",
                   "--format", "toml", "--set",
                   "nvcc.path=/opt/cu\x7f"
                   "da\xff/bin/nvcc",
                   "--set", "python.path=/usr/bin/py\x1b[31mthon\x01", "--set",
                   "platform.os=linux\x9b"},
                  {{"CUDADEPS_FACTS", ""}});
  expectReadsBack(T, R);
  // The comment shows what was set, escaped.
  EXPECT_THAT(R.Out, HasSubstr("\\x7f"));
  EXPECT_THAT(R.Out, HasSubstr("\\x1b[31m"));
}

TEST(TomlRoundTrip, ProbedPathsWithControlBytesReadBack) {
  TempDir T;
  ASSERT_TRUE(T.ok());
  std::string Root = T.sub("cu\x7f"
                           "da\xff");
  makeFakeToolkit(Root);
  RunResult R = runCudadeps({"probe", "--format", "toml"},
                            {{"CUDADEPS_FACTS", ""},
                             {"CUDA_HOME", Root},
                             {"PATH", "/usr/bin:/bin"},
                             {"XDG_CACHE_HOME", T.sub("cache")}});
  expectReadsBack(T, R);
  EXPECT_THAT(R.Out, HasSubstr("cu\\x7fda\\xff/bin/nvcc"));
}

} // namespace
