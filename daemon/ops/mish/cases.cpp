// daemon/ops/mish/cases.cpp — mish's test cases (ops/op_cases.hpp). Expected values from
// torch.nn.functional.mish in float64 (PyTorch 2.11, CPU).
#include "ops/op_cases.hpp"

namespace kbv::ops::mish {

OpCases cases() {
  OpCases cases = unary_cases();
  cases.samples.push_back({"wide", {{8, 64}}, {}});
  cases.values.push_back({"negative, zero, positive, above the threshold", {{6}}, {{-4, -1, 0, 0.5, 2, 25}}, {},
                          {-0.07259174079202535, -0.30340146137410895, 0, 0.3752452113048951,
                           1.9439589595339946, 25}});
  return cases;
}

}  // namespace kbv::ops::mish
