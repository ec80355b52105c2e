// daemon/ops/maximum/cases.cpp — maximum's test cases (ops/op_cases.hpp). Expected values from
// torch.maximum (PyTorch 2.11, CPU).
#include <limits>

#include "ops/op_cases.hpp"

namespace kbv::ops::maximum {

OpCases cases() {
  OpCases cases = binary_cases();
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  cases.values.push_back({"the larger", {{3}, {3}}, {{1, 5, -2}, {3, 2, -2}}, {}, {3, 5, -2}});
  cases.values.push_back({"NaN from either side", {{3}, {3}}, {{kNaN, 1, 2}, {1, kNaN, 0}}, {}, {kNaN, kNaN, 2}});
  return cases;
}

}  // namespace kbv::ops::maximum
