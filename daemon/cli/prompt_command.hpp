// cli/prompt_command.hpp — `kbv prompt PROBLEM`: a self-contained prompt from which a language
// model can write a candidate for that problem (cli/prompt_text.hpp).
#pragma once

#include <string>
#include <vector>

namespace kbv::cli {

int prompt_command(const std::vector<std::string>& args);

}  // namespace kbv::cli
