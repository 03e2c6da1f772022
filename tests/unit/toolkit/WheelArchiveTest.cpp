//===- WheelArchiveTest.cpp - hostile archive members never escape ---------===//
#include "core/toolkit/WheelArchive.h"

#include "tests/support/FakeToolkit.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <unistd.h>

using namespace cudadeps;
using namespace llvm;
using namespace cudadeps::test;
using ::testing::HasSubstr;

namespace {

TEST(WheelArchive, MemberNamesThatEscapeAreRefused) {
  EXPECT_EQ(unsafeMemberReason("nvidia/cu13/bin/nvcc"), "");
  EXPECT_EQ(unsafeMemberReason("a/..b/c"), ""); // a name, not '..'
  EXPECT_THAT(unsafeMemberReason("../evil"), HasSubstr(".."));
  EXPECT_THAT(unsafeMemberReason("nvidia/cu13/../../../evil"), HasSubstr(".."));
  EXPECT_THAT(unsafeMemberReason("/etc/passwd"), HasSubstr("absolute"));
  EXPECT_THAT(unsafeMemberReason("a\\..\\b"), HasSubstr("backslash"));
  EXPECT_THAT(unsafeMemberReason(""), HasSubstr("empty"));
}

TEST(WheelArchive, LinksMustStayInsideTheTree) {
  EXPECT_EQ(unsafeLinkReason("lib64/libcudart.so", "libcudart.so.13"), "");
  EXPECT_EQ(unsafeLinkReason("lib64/x", "../include/x"), "");
  EXPECT_THAT(unsafeLinkReason("lib64/x", "../../x"), HasSubstr("outside"));
  EXPECT_THAT(unsafeLinkReason("x", "/etc/passwd"), HasSubstr("absolute"));
  EXPECT_THAT(unsafeLinkReason("a/x", "b/../../.."), HasSubstr("'..'"));
  EXPECT_THAT(unsafeLinkReason("x", ""), HasSubstr("empty"));
}

TEST(WheelArchive, ExtractsUnderThePrefixAndKeepsModes) {
  TempDir T("cudadeps-zip");
  ASSERT_TRUE(T.ok());
  std::string Zip = T.sub("a.whl");
  ASSERT_FALSE(errorToBool(writeArchive(
      Zip, {{"nvidia/cu13/bin/nvcc", "#!/bin/sh\n", 0755},
            {"nvidia/cu13/include/x.h", "int x;\n"},
            {"nvidia/cu13/lib/libx.so", "libx.so.1", 0777, /*IsSymlink=*/true},
            {"other/skipped.txt", "no"}})));
  std::string Dest = T.sub("out");
  ASSERT_TRUE(makeDirs(Dest));
  Expected<ExtractStats> S = extractArchive(Zip, "nvidia/cu13/", Dest, 1 << 20);
  ASSERT_TRUE(bool(S)) << toString(S.takeError());
  EXPECT_EQ(S->Files, 3u);
  EXPECT_TRUE(llvm::sys::fs::can_execute(T.sub("out/bin/nvcc")));
  EXPECT_FALSE(llvm::sys::fs::can_execute(T.sub("out/include/x.h")));
  char Link[256];
  ssize_t N = ::readlink(T.sub("out/lib/libx.so").c_str(), Link, sizeof(Link));
  ASSERT_GT(N, 0);
  EXPECT_EQ(std::string(Link, N), "libx.so.1");
  EXPECT_FALSE(llvm::sys::fs::exists(T.sub("out/other")));
  EXPECT_FALSE(llvm::sys::fs::exists(T.sub("out/skipped.txt")));
}

/// Extracting \p Entries into a fresh destination fails with \p Why and
/// writes nothing outside it.
void expectRefused(const std::vector<ArchiveEntry> &Entries,
                   llvm::StringRef Why) {
  TempDir T("cudadeps-zip");
  ASSERT_TRUE(T.ok());
  std::string Zip = T.sub("hostile.whl");
  ASSERT_FALSE(errorToBool(writeArchive(Zip, Entries)));
  std::string Dest = T.sub("deep/er/out");
  ASSERT_TRUE(makeDirs(Dest));
  Expected<ExtractStats> S = extractArchive(Zip, "", Dest, 1 << 20);
  ASSERT_FALSE(bool(S));
  EXPECT_THAT(toString(S.takeError()), HasSubstr(Why.str()));
  EXPECT_FALSE(llvm::sys::fs::exists(T.sub("evil")));
  EXPECT_FALSE(llvm::sys::fs::exists(T.sub("deep/evil")));
  EXPECT_FALSE(llvm::sys::fs::exists(T.sub("deep/er/evil")));
}

TEST(WheelArchive, HostileMembersAreRefusedAndNothingEscapes) {
  expectRefused({{"ok.txt", "x"}, {"../evil", "pwned"}}, "climbs out");
  expectRefused({{"a/../../evil", "pwned"}}, "climbs out");
  expectRefused({{"/tmp/cudadeps-absolute-evil", "pwned"}}, "absolute");
  expectRefused({{"l", "../../..", 0777, true}, {"l/evil", "pwned"}},
                "outside the tree");
  expectRefused({{"l", "/tmp", 0777, true}}, "absolute");
  // A link to '.' and a '..' link below it would climb out physically.
  expectRefused({{"d", ".", 0777, true}, {"d/up", "..", 0777, true},
                 {"d/up/evil", "pwned"}},
                "through a symbolic link");
  EXPECT_FALSE(llvm::sys::fs::exists("/tmp/cudadeps-absolute-evil"));
}

TEST(WheelArchive, SizeIsBounded) {
  TempDir T("cudadeps-zip");
  ASSERT_TRUE(T.ok());
  std::string Zip = T.sub("big.whl");
  ASSERT_FALSE(errorToBool(writeArchive(Zip, {{"big", std::string(4096, 'x')}})));
  Expected<ExtractStats> S = extractArchive(Zip, "", T.path(), 1024);
  ASSERT_FALSE(bool(S));
  EXPECT_THAT(toString(S.takeError()), HasSubstr("more than"));
  EXPECT_FALSE(llvm::sys::fs::exists(T.sub("big")));
}

TEST(WheelArchive, NotAZipIsAClearError) {
  TempDir T("cudadeps-zip");
  ASSERT_TRUE(T.ok());
  ASSERT_TRUE(writeFile(T.sub("junk.whl"), "this is not a zip file\n"));
  Expected<ExtractStats> S = extractArchive(T.sub("junk.whl"), "", T.path(), 1024);
  ASSERT_FALSE(bool(S));
  EXPECT_THAT(toString(S.takeError()), HasSubstr("cannot read the archive"));
}

} // namespace
