// calibration/library_sources.cpp — a problem's library sources digest from the generated table.
#include "calibration/library_sources.hpp"

#include <set>
#include <stdexcept>

#include "verify/checksum.hpp"

namespace kbv::calibration {

std::string library_sources_sha256(const Problem& problem) {
  std::set<std::string> ops;
  for (const Node& node : problem.graph) ops.insert(node.op);
  std::string text = "shared " + std::string(detail::shared_library_sources()) + "\n";
  for (const std::string& op : ops) {
    const auto found = detail::op_library_sources().find(op);
    if (found == detail::op_library_sources().end())
      throw std::invalid_argument("problem " + problem.name + ": op " + op + " has no library sources digest in this build");
    text += op + " " + found->second + "\n";
  }
  return sha256_hex(text.data(), text.size());
}

}  // namespace kbv::calibration
