// daemon/ops/clamp/cases.cpp — clamp's test cases (ops/op_cases.hpp). Expected values from
// torch.clamp in float64 (PyTorch 2.11, CPU).
#include <limits>

#include "ops/op_cases.hpp"

namespace kbv::ops::clamp {

OpCases cases() {
  OpCases cases = unary_cases();
  constexpr double kInf = std::numeric_limits<double>::infinity();
  cases.samples.push_back({"both_bounds", {{9, 64}}, {{"min", -0.5}, {"max", 0.75}}});
  cases.samples.push_back({"relu6", {{5, 33}}, {{"min", 0}, {"max", 6}}});
  cases.samples.push_back({"upper_only", {{4, 16}}, {{"max", 0.25}}});
  cases.values.push_back({"[0, 1]", {{4}}, {{-2, 0, 0.5, 3}}, {{"min", 0}, {"max", 1}}, {0, 0, 0.5, 1}});
  cases.values.push_back({"min above max gives max everywhere", {{3}}, {{-2, 0, 3}}, {{"min", 1}, {"max", 0}}, {0, 0, 0}});
  cases.values.push_back({"no bounds by default: the identity", {{3}}, {{-1e30, 0, 1e30}}, {}, {-1e30, 0, 1e30}});
  cases.values.push_back({"an infinite lower bound", {{2}}, {{-5, 5}}, {{"min", -kInf}, {"max", 2}}, {-5, 2}});
  cases.rejects.push_back({{{2}}, {{"min", std::numeric_limits<double>::quiet_NaN()}}, "is NaN"});
  return cases;
}

}  // namespace kbv::ops::clamp
