// cli/problems_command.hpp — `kbv problems [NAME]`: the problem set, or one problem in full.
#pragma once

#include <string>
#include <vector>

namespace kbv::cli {

int problems_command(const std::vector<std::string>& args);

}  // namespace kbv::cli
