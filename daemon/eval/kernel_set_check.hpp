// eval/kernel_set_check.hpp — the phase-detection rule over the kernel names the worker's
// CUPTI trace reports per call: the first traced call may add one-time kernels (lazy
// initialisation, a workspace memset); from the second on, every call must launch exactly the
// set the second did.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace kbv::eval {

class KernelSetCheck {
 public:
  // The traced call whose kernel set every later call must repeat.
  static constexpr int kSteadyCall = 2;

  // Feeds one traced call's kernel names (sorted, distinct). Returns nothing while the call
  // agrees with the rule, else the difference from the steady set: " +added -dropped ...".
  std::optional<std::string> observe(const std::vector<std::string>& names);

  int traced_calls() const { return traced_calls_; }

 private:
  int traced_calls_ = 0;
  std::optional<std::vector<std::string>> steady_;
};

}  // namespace kbv::eval
