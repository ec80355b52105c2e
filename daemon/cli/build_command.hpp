// cli/build_command.hpp — `kbv build FILE.cu|FILE.cpp --problem P`: compile one candidate source
// into a plugin with kbv_add_candidate()'s flags, no CMake needed (cli/candidate_compiler.hpp).
#pragma once

#include <string>
#include <vector>

namespace kbv::cli {

int build_command(const std::vector<std::string>& args);

}  // namespace kbv::cli
