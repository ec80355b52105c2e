// daemon/ops/log/cases.cpp — log's test cases (ops/op_cases.hpp). Expected values from torch.log
// in float64 (PyTorch 2.11, CPU). Samples draw magnitudes: the op's input domain.
#include <limits>

#include "ops/op_cases.hpp"

namespace kbv::ops::log {

OpCases cases() {
  OpCases cases = unary_cases();
  cases.values.push_back({"natural log; NaN below 0", {{4}}, {{0.5, 1, 10, -1}}, {},
                          {-0.6931471805599453, 0, 2.302585092994046, std::numeric_limits<double>::quiet_NaN()}});
  return cases;
}

}  // namespace kbv::ops::log
