// daemon/ops/relu/cases.cpp — relu's test cases (ops/op_cases.hpp).
#include "ops/op_cases.hpp"

namespace kbv::ops::relu {

OpCases cases() {
  OpCases cases = unary_cases();
  cases.values.push_back({"negatives clamp to 0", {{4}}, {{-1, 0, 2, -0.5}}, {}, {0, 0, 2, 0}});
  return cases;
}

}  // namespace kbv::ops::relu
