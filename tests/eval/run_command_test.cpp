// run_command_test.cpp — the test process runner itself: exit status, both streams, signals,
// environment and the timeout.
#include <gtest/gtest.h>

#include <csignal>
#include <cstdlib>

#include "run_command.hpp"

namespace kbv::test {
namespace {

constexpr const char* kShell = "/bin/sh";

Command shell(const std::string& script) {
  Command command;
  command.argv = {kShell, "-c", script};
  command.timeout = std::chrono::seconds(20);
  return command;
}

TEST(RunCommand, CapturesBothStreamsAndTheExitStatus) {
  const CommandResult result = run_command(shell("echo out; echo err >&2; exit 3"));
  EXPECT_EQ(result.exit_code, 3);
  EXPECT_EQ(result.out, "out\n");
  EXPECT_EQ(result.err, "err\n");
  EXPECT_FALSE(result.timed_out);
}

TEST(RunCommand, ReportsTheSignalThatEndedTheProgram) {
  const CommandResult result = run_command(shell("kill -SEGV $$"));
  EXPECT_EQ(result.exit_code, -1);
  EXPECT_EQ(result.signal, SIGSEGV);
}

TEST(RunCommand, SetsAndUnsetsEnvironmentVariables) {
  setenv("KBV_RUN_COMMAND_TEST_UNSET", "still here", 1);
  Command command = shell("echo \"$KBV_RUN_COMMAND_TEST_SET|${KBV_RUN_COMMAND_TEST_UNSET:-gone}\"");
  command.env = {{"KBV_RUN_COMMAND_TEST_SET", "value"}};
  command.unset_env = {"KBV_RUN_COMMAND_TEST_UNSET"};
  EXPECT_EQ(run_command(command).out, "value|gone\n");
  unsetenv("KBV_RUN_COMMAND_TEST_UNSET");
}

TEST(RunCommand, KillsTheProcessGroupAfterTheTimeout) {
  // The background sleep holds the pipes too; it dies with the group.
  Command command = shell("sleep 30 & sleep 30; echo never");
  command.timeout = std::chrono::milliseconds(300);
  const CommandResult result = run_command(command);
  EXPECT_TRUE(result.timed_out);
  EXPECT_EQ(result.signal, SIGKILL);
  EXPECT_EQ(result.out, "");
}

TEST(RunCommand, ReportsAProgramThatCannotBeExecuted) {
  Command command;
  command.argv = {"/nonexistent/kbv-run-command-test"};
  const CommandResult result = run_command(command);
  EXPECT_EQ(result.exit_code, 127);
  EXPECT_NE(result.err.find("execve failed"), std::string::npos);
}

}  // namespace
}  // namespace kbv::test
