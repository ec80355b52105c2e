// eval/kernel_set_check.cpp — see kernel_set_check.hpp.
#include "eval/kernel_set_check.hpp"

#include <algorithm>

namespace kbv::eval {

std::optional<std::string> KernelSetCheck::observe(const std::vector<std::string>& names) {
  if (++traced_calls_ == kSteadyCall) {
    steady_ = names;
    return std::nullopt;
  }
  if (!steady_ || *steady_ == names) return std::nullopt;
  const auto contains = [](const std::vector<std::string>& set, const std::string& name) {
    return std::find(set.begin(), set.end(), name) != set.end();
  };
  std::string difference;
  for (const auto& name : names)
    if (!contains(*steady_, name)) difference += " +" + name;
  for (const auto& name : *steady_)
    if (!contains(names, name)) difference += " -" + name;
  return difference;
}

}  // namespace kbv::eval
