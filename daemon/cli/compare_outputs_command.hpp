// cli/compare_outputs_command.hpp — `kbv compare-outputs`: outputs computed elsewhere (PyTorch)
// against the fp64 reference of a `kbv export`, with kbv's own comparison rule.
#pragma once

#include <string>
#include <vector>

namespace kbv::cli {

int compare_outputs_command(const std::vector<std::string>& args);

}  // namespace kbv::cli
