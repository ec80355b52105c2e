// sandbox/operator_skips.cpp — KBV_SANDBOX_SKIP's tokens (see operator_skips.hpp).
#include "sandbox/operator_skips.hpp"

#include <cstdlib>
#include <sstream>

namespace kbv::sandbox {

std::vector<std::string> operator_skipped_layers() {
  std::vector<std::string> tokens;
  if (const char* skip = std::getenv("KBV_SANDBOX_SKIP")) {
    std::stringstream list{std::string(skip)};
    for (std::string token; std::getline(list, token, ',');) tokens.push_back(token);
  }
  return tokens;
}

}  // namespace kbv::sandbox
