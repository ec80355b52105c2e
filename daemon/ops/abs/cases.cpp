// daemon/ops/abs/cases.cpp — abs's test cases (ops/op_cases.hpp).
#include "ops/op_cases.hpp"

namespace kbv::ops::abs {

OpCases cases() {
  OpCases cases = unary_cases();
  cases.values.push_back({"|x|", {{4}}, {{-2.5, -0.0, 0, 3}}, {}, {2.5, 0, 0, 3}});
  return cases;
}

}  // namespace kbv::ops::abs
