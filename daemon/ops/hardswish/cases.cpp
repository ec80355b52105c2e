// daemon/ops/hardswish/cases.cpp — hardswish's test cases (ops/op_cases.hpp). Expected values
// from torch.nn.functional.hardswish in float64 (PyTorch 2.11, CPU).
#include "ops/op_cases.hpp"

namespace kbv::ops::hardswish {

OpCases cases() {
  OpCases cases = unary_cases();
  cases.values.push_back({"0 below -3, x above 3, x(x + 3)/6 between", {{7}}, {{-4, -3, -1, 0, 1.5, 3, 4}},
                          {}, {0, 0, -0.3333333333333333, 0, 1.125, 3, 4}});
  return cases;
}

}  // namespace kbv::ops::hardswish
