// daemon/ops/silu/cases.cpp — silu's test cases (ops/op_cases.hpp). Expected values from
// torch.nn.functional.silu in float64 (PyTorch 2.11, CPU).
#include "ops/op_cases.hpp"

namespace kbv::ops::silu {

OpCases cases() {
  OpCases cases = unary_cases();
  cases.values.push_back({"x·sigmoid(x)", {{6}}, {{-4, -1, 0, 0.5, 2, 25}}, {},
                          {-0.07194483984836623, -0.2689414213699951, 0, 0.3112296656009273,
                           1.7615941559557646, 24.9999999996528}});
  return cases;
}

}  // namespace kbv::ops::silu
