// daemon/ops/scale/cases.cpp — scale's test cases (ops/op_cases.hpp).
#include "ops/op_cases.hpp"

#include <cmath>

namespace kbv::ops::scale {

OpCases cases() {
  OpCases cases = unary_cases();
  cases.samples.push_back({"negative", {{33, 31}}, {{"value", -0.75}}});
  cases.samples.push_back({"half", {{5, 9}}, {{"value", 0.5}}});
  cases.values.push_back({"by 0.5", {{2}}, {{2, -4}}, {{"value", 0.5}}, {1, -2}});
  cases.rejects.push_back({{{2}}, {{"value", std::nan("")}}, "expected a finite number"});
  return cases;
}

}  // namespace kbv::ops::scale
