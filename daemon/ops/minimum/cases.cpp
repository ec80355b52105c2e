// daemon/ops/minimum/cases.cpp — minimum's test cases (ops/op_cases.hpp). Expected values from
// torch.minimum (PyTorch 2.11, CPU).
#include <limits>

#include "ops/op_cases.hpp"

namespace kbv::ops::minimum {

OpCases cases() {
  OpCases cases = binary_cases();
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  cases.values.push_back({"the smaller, broadcast", {{2, 1}, {3}}, {{1, -2}, {3, 0, -5}}, {}, {1, 0, -5, -2, -2, -5}});
  cases.values.push_back({"NaN from either side", {{3}, {3}}, {{kNaN, 1, 2}, {1, kNaN, 0}}, {}, {kNaN, kNaN, 0}});
  return cases;
}

}  // namespace kbv::ops::minimum
