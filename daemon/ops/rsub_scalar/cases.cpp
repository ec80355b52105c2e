// daemon/ops/rsub_scalar/cases.cpp — rsub_scalar's test cases (ops/op_cases.hpp).
#include "ops/op_cases.hpp"

namespace kbv::ops::rsub_scalar {

OpCases cases() {
  OpCases cases = unary_cases();
  cases.samples.push_back({"one_minus", {{9, 64}}, {{"value", 1}}});
  cases.values.push_back({"1 − x", {{3}}, {{-1, 0, 2}}, {{"value", 1}}, {2, 1, -1}});
  cases.values.push_back({"negation by default", {{2}}, {{-1, 3}}, {}, {1, -3}});
  return cases;
}

}  // namespace kbv::ops::rsub_scalar
