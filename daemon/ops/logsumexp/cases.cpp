// daemon/ops/logsumexp/cases.cpp — logsumexp's test cases (ops/op_cases.hpp). Expected values
// from torch.logsumexp in float64 (PyTorch 2.11, CPU).
#include <limits>

#include "ops/op_cases.hpp"

namespace kbv::ops::logsumexp {

OpCases cases() {
  OpCases cases = axis_reduction_cases();
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  cases.costs = {{{{1024, 8192}}, {{"axis", 1}}, 1024.0 * 8192}};  // one add per element
  const std::vector<double> x = {1, -2, 3, 4, 5, -6};               // [[1, -2, 3], [4, 5, -6]]
  cases.values = {{"rows", {{2, 3}}, {x}, {}, {3.1328452337275756, 5.313273897365323}},
                  {"every axis", {{2, 3}}, {x}, {{"axis", 0}, {"count", 2}, {"keepdim", 0}}, {5.420326756010547}},
                  {"1000 twice: exp would overflow without the max", {{2}}, {{1000, 1000}}, {}, {1000.6931471805599}},
                  {"NaN propagates", {{3}}, {{1, kNaN, 3}}, {}, {kNaN}}};
  return cases;
}

}  // namespace kbv::ops::logsumexp
