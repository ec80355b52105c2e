// cli/calibrate_command.hpp — `kbv calibrate`: run kbv-calibrate (CUDA builds) so evaluations
// find this GPU's ceilings and the conv baselines' cuDNN algorithms.
#pragma once

#include <string>
#include <vector>

namespace kbv::cli {

int calibrate_command(const std::vector<std::string>& args);

}  // namespace kbv::cli
