// client/control_command.hpp — one control command line against a running kbvd.
#pragma once

namespace kbv::control {

// argv[0] is the program name, argv[1..] the words: COMMAND [options] (see kbvctl --help).
// Returns the process exit status: 0 ok, 1 kbvd refused or is unreachable, 2 usage.
int run_control_command(int argc, char** argv);

}  // namespace kbv::control
