// daemon/ops/elu/cases.cpp — elu's test cases (ops/op_cases.hpp).
#include "ops/op_cases.hpp"

namespace kbv::ops::elu {

OpCases cases() {
  OpCases cases = unary_cases();
  cases.samples.push_back({"alpha_half", {{9, 64}}, {{"alpha", 0.5}}});
  cases.values.push_back({"alpha 1: expm1 below 0, identity above", {{3}}, {{-1, 0, 2}}, {},
                          {-0.6321205588285577, 0, 2}});
  cases.values.push_back({"alpha 0.5", {{2}}, {{-2, 3}}, {{"alpha", 0.5}}, {-0.43233235838169365, 3}});
  return cases;
}

}  // namespace kbv::ops::elu
