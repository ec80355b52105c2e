// kbvd's command line (Boost.Program_options): the configuration file and field overrides.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "config/config.hpp"

namespace kbv::kbvd {

struct CommandLine {
  std::filesystem::path config_file;  // empty: built-in defaults
  std::vector<Override> overrides;
  bool check_only = false;  // --check-config: validate, print the result, exit
};

// Parses argv. Returns nothing after printing --help or --version; throws ConfigError (or
// Program_options' errors) for bad options.
std::optional<CommandLine> parse_command_line(int argc, const char* const argv[]);

}  // namespace kbv::kbvd
