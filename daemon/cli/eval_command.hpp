// cli/eval_command.hpp — `kbv eval`: evaluate candidates without a daemon.
#pragma once

#include <string>
#include <vector>

namespace kbv::cli {

int eval_command(const std::vector<std::string>& args);

}  // namespace kbv::cli
