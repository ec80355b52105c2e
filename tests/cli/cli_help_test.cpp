// tests/cli/cli_help_test.cpp — `kbv --help` lists every subcommand (the kbvd ones too), every
// subcommand answers --help with exit 0, internal options stay hidden, and usage errors name
// the option and point at --help with exit 2.
#include <gtest/gtest.h>

#include "kbv_eval.hpp"

namespace kbv::test {
namespace {

const std::vector<std::string> kSubcommands = {"eval",   "problems", "prompt", "build",   "export",  "compare-outputs", "keygen",
                                               "calibrate", "submit", "status", "results", "requeue", "version"};
// Those kbv parses itself (the kbvd ones are kbvctl's, reached through kbv).
const std::vector<std::string> kOwnSubcommands = {"eval", "problems", "prompt", "build", "export", "compare-outputs", "keygen", "calibrate", "version"};

CommandResult kbv(const std::vector<std::string>& args) {
  Command command;
  command.argv = {kbv_binary().string()};
  command.argv.insert(command.argv.end(), args.begin(), args.end());
  command.unset_env = {"KBV_KEY_FILE", "KBV_PROBLEMS_DIR", "KBV_WORKER", "KBV_SOCKET"};
  return run_command(command);
}

TEST(CliHelp, TopLevelHelpListsEverySubcommand) {
  for (const char* flag : {"--help", "-h", "help"}) {
    const CommandResult result = kbv({flag});
    EXPECT_EQ(result.exit_code, 0) << flag;
    for (const auto& name : kSubcommands) EXPECT_NE(result.out.find("\n  " + name + " "), std::string::npos) << name << " missing from:\n" << result.out;
  }
}

TEST(CliHelp, NoCommandIsAUsageErrorWithTheList) {
  const CommandResult result = kbv({});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("\n  eval "), std::string::npos) << result.err;
}

TEST(CliHelp, EverySubcommandHasAWorkingHelp) {
  for (const auto& name : kSubcommands) {
    for (const std::vector<std::string>& args : {std::vector<std::string>{name, "--help"}, {name, "-h"}, {"help", name}}) {
      const CommandResult result = kbv(args);
      EXPECT_EQ(result.exit_code, 0) << "kbv " << args[0] << " " << args[1] << "\n" << result.err;
      EXPECT_NE(result.out.find("usage:"), std::string::npos) << "kbv " << args[0] << " " << args[1] << "\n" << result.out;
    }
  }
  for (const auto& name : kOwnSubcommands) {
    const CommandResult result = kbv({name, "--help"});
    EXPECT_NE(result.out.find("usage: kbv " + name), std::string::npos) << result.out;
    if (name != "version") {
      EXPECT_NE(result.out.find("Exit status"), std::string::npos) << "kbv " << name << " --help must say what its exit statuses mean\n" << result.out;
    }
  }
}

TEST(CliHelp, InternalOptionsAreHiddenButAccepted) {
  const CommandResult help = kbv({"eval", "--help"});
  EXPECT_EQ(help.out.find("wait-for-candidate"), std::string::npos) << help.out;
  // Still parsed: with nothing on stdin it says so, instead of "unrecognised option".
  const CommandResult used = kbv({"eval", "--wait-for-candidate", "--key-file", test_key_file().string()});
  EXPECT_EQ(used.exit_code, 2);
  EXPECT_NE(used.err.find("no candidate path on stdin"), std::string::npos) << used.err;
}

TEST(CliHelp, UnknownOptionNamesItAndPointsAtHelp) {
  for (const auto& name : kOwnSubcommands) {
    const CommandResult result = kbv({name, "--no-such-option"});
    EXPECT_EQ(result.exit_code, 2) << name;
    EXPECT_NE(result.err.find("--no-such-option"), std::string::npos) << name << ": " << result.err;
    EXPECT_NE(result.err.find("kbv " + name + " --help"), std::string::npos) << name << ": " << result.err;
  }
}

// PyTorch's calibration options mean nothing to the ceilings run: refused by name before any
// device is touched, --max-duty (the pace of both timers) among them.
TEST(CliHelp, CalibratesTorchOnlyOptionsNeedTorch) {
  for (const std::vector<std::string>& args : {std::vector<std::string>{"calibrate", "--max-duty", "0.5"},
                                               std::vector<std::string>{"calibrate", "--no-compile"},
                                               std::vector<std::string>{"calibrate", "--stale"}}) {
    const CommandResult result = kbv(args);
    EXPECT_EQ(result.exit_code, 2) << args[1];
    EXPECT_NE(result.err.find(args[1] + " needs --torch"), std::string::npos) << result.err;
  }
  const CommandResult help = kbv({"calibrate", "--help"});
  EXPECT_NE(help.out.find("--max-duty"), std::string::npos) << help.out;
  EXPECT_NE(help.out.find("--stale"), std::string::npos) << help.out;
}

// Numbers Boost would take wrongly are usage errors naming the option: "-1" is not an epoch
// (read unsigned, it became 2^64 − 1), and 0, negative or NaN seconds are no limit.
TEST(CliHelp, NegativeEpochsAndNonPositiveSecondsAreRefused) {
  const std::vector<std::vector<std::string>> refused = {
      {"eval", "x.so", "--epoch", "-1"},          {"eval", "x.so", "--epoch", "12abc"},
      {"eval", "x.so", "--timeout-s", "0"},       {"eval", "x.so", "--timeout-s", "nan"},
      {"eval", "x.so", "--timing-budget-s", "-5"}, {"export", "--problem", "relu", "--out", "o", "--seed", "-1"},
      {"export", "--problem", "relu", "--out", "o", "--epoch", "-5"}, {"report", "folder", "--epoch", "-1"},
      {"sweep", "s.yaml", "--epoch", "-1"},        {"sweep", "s.yaml", "--budget-wall-s", "-2"}};
  for (const auto& args : refused) {
    const CommandResult result = kbv(args);
    EXPECT_EQ(result.exit_code, 2) << args[0] << " " << args[args.size() - 2] << " " << args.back();
    EXPECT_NE(result.err.find("for option '" + args[args.size() - 2] + "' is invalid"), std::string::npos) << result.err;
  }
}

// Review: `kbv help bogus` exited 0.
TEST(CliHelp, HelpForAnUnknownCommandIsAUsageError) {
  const CommandResult result = kbv({"help", "bogus"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("unknown command 'bogus'"), std::string::npos) << result.err;
}

TEST(CliHelp, UnknownCommandIsAUsageError) {
  const CommandResult result = kbv({"evaluate"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("unknown command 'evaluate'"), std::string::npos) << result.err;
}

}  // namespace
}  // namespace kbv::test
