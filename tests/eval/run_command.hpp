// run_command.hpp — run a program, capture its stdout and stderr, and kill it (with its whole
// process group) when it outlives a timeout. For tests that drive the real kbv binary.
#pragma once

#include <chrono>
#include <map>
#include <string>
#include <vector>

namespace kbv::test {

struct CommandResult {
  int exit_code = -1;     // when the program exited; -1 when a signal ended it
  int signal = 0;         // the signal that ended it, 0 when it exited
  bool timed_out = false; // killed by run_command after the timeout
  std::string out;        // everything it wrote on stdout
  std::string err;        // everything it wrote on stderr
};

struct Command {
  std::vector<std::string> argv;                // argv[0] is the program's path
  std::map<std::string, std::string> env;       // set (or override) in its environment
  std::vector<std::string> unset_env;           // removed from its environment
  std::chrono::milliseconds timeout{60000};
};

// Runs `command` with stdin from /dev/null in a new process group; never throws for the
// program's own failures (they are in the result), throws std::system_error when it cannot
// start it at all.
CommandResult run_command(const Command& command);

// "argv[0] argv[1] …" for failure messages.
std::string describe(const Command& command);

}  // namespace kbv::test
