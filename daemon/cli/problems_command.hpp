// cli/problems_command.hpp — `kbv problems` (list) and `kbv keygen` (create the key).
#pragma once

#include <string>
#include <vector>

namespace kbv::cli {

int problems_command(const std::vector<std::string>& args);
int keygen_command(const std::vector<std::string>& args);

}  // namespace kbv::cli
