// daemon/ops/exp/cases.cpp — exp's test cases (ops/op_cases.hpp). Expected values from torch.exp
// in float64 (PyTorch 2.11, CPU).
#include "ops/op_cases.hpp"

namespace kbv::ops::exp {

OpCases cases() {
  OpCases cases = unary_cases();
  cases.values.push_back({"e^x", {{4}}, {{-1, 0, 1, 2.5}}, {},
                          {0.36787944117144233, 1, 2.718281828459045, 12.182493960703473}});
  return cases;
}

}  // namespace kbv::ops::exp
