// daemon/ops/leaky_relu/cases.cpp — leaky_relu's test cases (ops/op_cases.hpp).
#include "ops/op_cases.hpp"

#include <limits>

namespace kbv::ops::leaky_relu {

OpCases cases() {
  OpCases cases = unary_cases();
  cases.samples.push_back({"slope", {{9, 64}}, {{"negative_slope", 0.2}}});
  cases.samples.push_back({"slope_odd", {{4, 33}}, {{"negative_slope", 0.2}}});
  cases.values.push_back({"default slope 0.01", {{2}}, {{-2, 3}}, {}, {-0.02, 3}});
  cases.values.push_back({"slope 0.2", {{2}}, {{-2, 3}}, {{"negative_slope", 0.2}}, {-0.4, 3}});
  cases.rejects.push_back({{{2}}, {{"negative_slope", std::numeric_limits<double>::infinity()}}, "expected a finite number"});
  return cases;
}

}  // namespace kbv::ops::leaky_relu
