// cli/command_line.hpp — the one argument parser every kbv subcommand uses (Boost.Program_options):
// --help on every command (exit 0), usage errors that name the option and point at --help
// (exit 2), hidden options and positional arguments.
#pragma once

#include <boost/program_options.hpp>
#include <optional>
#include <string>
#include <vector>

namespace kbv::cli {

// Exit statuses every subcommand shares.
constexpr int kExitOk = 0;
constexpr int kExitBadInput = 2;
// kbv eval only: its own set-up failed (the problem specs, the secret key) before any candidate
// was looked at, so nothing was judged. kbvd and kbv sweep keep the candidates queued
// (kbvd/sched/outcome.hpp, kEvaluatorSetupExit) rather than record bad_input for each.
constexpr int kExitEvaluatorSetup = 3;

// What `kbv COMMAND --help` prints above the options.
struct CommandHelp {
  std::string name;         // "eval"
  std::string synopsis;     // "eval CANDIDATE.so... [options]"
  std::string description;  // a paragraph: what it does, exit statuses
};

// One positional argument: its name in messages, and how many (-1: any number).
struct Positional {
  std::string name;
  int max_count = 1;
};

// Parses `args` for `kbv <help.name>`. `visible` options are listed by --help (which this adds);
// `hidden` ones are accepted but not listed; `positionals` take the remaining words in order.
// Returns the values, or nullopt after printing the help (exit_code 0) or a usage error on
// stderr (exit_code 2).
std::optional<boost::program_options::variables_map> parse_command_line(
    const CommandHelp& help, const boost::program_options::options_description& visible,
    const std::vector<std::string>& args, int& exit_code, const std::vector<Positional>& positionals = {},
    const boost::program_options::options_description* hidden = nullptr);

// Prints "kbv NAME: MESSAGE (see kbv NAME --help)" on stderr and returns kExitBadInput.
int usage_error(const std::string& command, const std::string& message);

// The positional words bound to `name` (empty when none were given).
std::vector<std::string> positional_values(const boost::program_options::variables_map& values, const std::string& name);

}  // namespace kbv::cli
