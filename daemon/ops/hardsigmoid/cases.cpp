// daemon/ops/hardsigmoid/cases.cpp — hardsigmoid's test cases (ops/op_cases.hpp).
#include "ops/op_cases.hpp"

namespace kbv::ops::hardsigmoid {

OpCases cases() {
  OpCases cases = unary_cases();
  cases.values.push_back({"0 below -3, 1 above 3, linear between", {{6}}, {{-4, -3, 0, 1.5, 3, 4}},
                          {}, {0, 0, 0.5, 0.75, 1, 1}});
  return cases;
}

}  // namespace kbv::ops::hardsigmoid
