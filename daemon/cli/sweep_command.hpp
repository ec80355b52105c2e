// cli/sweep_command.hpp — `kbv sweep SWEEP.yaml`: evaluate a sweep's candidates (through kbvd, or
// --standalone) and write its reports (docs/sweeps.md).
#pragma once

#include <string>
#include <vector>

namespace kbv::cli {

int sweep_command(const std::vector<std::string>& args);

}  // namespace kbv::cli
