// daemon/ops/div/cases.cpp — div's test cases (ops/op_cases.hpp). Expected values from torch.div
// (PyTorch 2.11, CPU).
#include <limits>

#include "ops/op_cases.hpp"

namespace kbv::ops::div {

OpCases cases() {
  OpCases cases = binary_cases();
  cases.values.push_back({"a row divided by a column", {{2, 1}, {1, 3}}, {{6, -3}, {1, 2, 4}}, {},
                          {6, 3, 1.5, -3, -1.5, -0.75}});
  cases.values.push_back({"0 / 0 is NaN", {{2}, {2}}, {{0, 6}, {0, 4}}, {},
                          {std::numeric_limits<double>::quiet_NaN(), 1.5}});
  return cases;
}

}  // namespace kbv::ops::div
