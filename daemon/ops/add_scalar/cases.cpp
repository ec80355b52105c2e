// daemon/ops/add_scalar/cases.cpp — add_scalar's test cases (ops/op_cases.hpp).
#include "ops/op_cases.hpp"

namespace kbv::ops::add_scalar {

OpCases cases() {
  OpCases cases = unary_cases();
  cases.samples.push_back({"minus_half", {{9, 64}}, {{"value", -0.5}}});
  cases.values.push_back({"x + 2.5", {{3}}, {{-1, 0, 2}}, {{"value", 2.5}}, {1.5, 2.5, 4.5}});
  cases.values.push_back({"the identity by default", {{2}}, {{-1, 3}}, {}, {-1, 3}});
  return cases;
}

}  // namespace kbv::ops::add_scalar
