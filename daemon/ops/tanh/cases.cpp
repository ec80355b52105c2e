// daemon/ops/tanh/cases.cpp — tanh's test cases (ops/op_cases.hpp).
#include "ops/op_cases.hpp"

namespace kbv::ops::tanh {

OpCases cases() {
  OpCases cases = unary_cases();
  cases.samples.push_back({"long_rows", {{2, 513}}, {}});
  cases.values.push_back({"odd function", {{2}}, {{0.5, -0.5}}, {},
                          {0.46211715726000974, -0.46211715726000974}});
  return cases;
}

}  // namespace kbv::ops::tanh
