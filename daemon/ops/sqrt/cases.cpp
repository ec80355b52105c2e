// daemon/ops/sqrt/cases.cpp — sqrt's test cases (ops/op_cases.hpp). Expected values from
// torch.sqrt in float64 (PyTorch 2.11, CPU). Samples draw magnitudes: the op's input domain.
#include <limits>

#include "ops/op_cases.hpp"

namespace kbv::ops::sqrt {

OpCases cases() {
  OpCases cases = unary_cases();
  cases.values.push_back({"square root; NaN below 0", {{4}}, {{0, 2, 9, -1}}, {},
                          {0, 1.4142135623730951, 3, std::numeric_limits<double>::quiet_NaN()}});
  return cases;
}

}  // namespace kbv::ops::sqrt
