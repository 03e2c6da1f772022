//===- CliTest.cpp - the command line end to end ----------------------------===//
#include "tests/support/RunCli.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

using namespace cudadeps::test;
using ::testing::HasSubstr;

TEST(Cli, HelpListsCommandsAndExitCodes) {
  RunResult R = runCudadeps({"--help"});
  EXPECT_EQ(R.Code, 0);
  EXPECT_THAT(R.Out, HasSubstr("usage: cudadeps"));
  EXPECT_THAT(R.Out, HasSubstr("lint"));
  EXPECT_THAT(R.Out, HasSubstr("exit codes"));
}

TEST(Cli, VersionPrintsVersion) {
  RunResult R = runCudadeps({"--version"});
  EXPECT_EQ(R.Code, 0);
  EXPECT_THAT(R.Out, HasSubstr("cudadeps " CUDADEPS_VERSION));
}

TEST(Cli, NoArgumentsIsUsageError) {
  RunResult R = runCudadeps({});
  EXPECT_EQ(R.Code, 2);
  EXPECT_THAT(R.Err, HasSubstr("usage:"));
}

TEST(Cli, MisspeltCommandSuggestsNearest) {
  RunResult R = runCudadeps({"lnit"});
  EXPECT_EQ(R.Code, 2);
  EXPECT_THAT(R.Err, HasSubstr("unknown command 'lnit'; did you mean 'lint'?"));
  EXPECT_TRUE(R.Out.empty());
}

TEST(Cli, UnknownOptionIsUsageError) {
  RunResult R = runCudadeps({"lint", "--frobnicate", "x.toml"});
  EXPECT_EQ(R.Code, 2);
  EXPECT_THAT(R.Err, HasSubstr("unknown option '--frobnicate'"));
}

TEST(Cli, CommandHelp) {
  RunResult R = runCudadeps({"lint", "--help"});
  EXPECT_EQ(R.Code, 0);
  EXPECT_THAT(R.Out, HasSubstr("usage: cudadeps lint MANIFEST..."));
}

TEST(Cli, LogFileThatCannotBeOpenedIsUsageError) {
  RunResult R = runCudadeps(
      {"lint", "--log-file", "/etc/passwd/log.txt", "x.toml"});
  EXPECT_EQ(R.Code, 2);
  EXPECT_THAT(R.Err, HasSubstr("cannot open log file"));
}
