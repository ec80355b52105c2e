// daemon/ops/hardtanh/cases.cpp — hardtanh's test cases (ops/op_cases.hpp).
#include "ops/op_cases.hpp"

namespace kbv::ops::hardtanh {

OpCases cases() {
  OpCases cases = unary_cases();
  cases.samples.push_back({"narrow", {{9, 64}}, {{"min_val", -0.25}, {"max_val", 0.75}}});
  cases.values.push_back({"clamps to [-1, 1]", {{4}}, {{-2, -0.5, 0.5, 2}}, {}, {-1, -0.5, 0.5, 1}});
  cases.values.push_back({"clamps to [-0.25, 0.75]", {{3}}, {{-2, 0, 2}},
                          {{"min_val", -0.25}, {"max_val", 0.75}}, {-0.25, 0, 0.75}});
  cases.rejects.push_back({{{2}}, {{"min_val", 1}, {"max_val", -1}}, "expected min_val <= max_val"});
  return cases;
}

}  // namespace kbv::ops::hardtanh
