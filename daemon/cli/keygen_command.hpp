// cli/keygen_command.hpp — `kbv keygen`: create the secret key that decides the hidden inputs.
#pragma once

#include <string>
#include <vector>

namespace kbv::cli {

int keygen_command(const std::vector<std::string>& args);

}  // namespace kbv::cli
