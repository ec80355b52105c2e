// daemon/ops/amin/cases.cpp — amin's test cases (ops/op_cases.hpp). Expected values from
// torch.amin in float64 (PyTorch 2.11, CPU).
#include <limits>

#include "ops/op_cases.hpp"

namespace kbv::ops::amin {

OpCases cases() {
  OpCases cases = axis_reduction_cases();
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  // extent − 1 comparisons per output (KernelBench L1 #49/#53: a [128, 4096, 4095] over axis 1).
  cases.costs = {{{{128, 4096, 4095}}, {{"axis", 1}}, 128.0 * 4095 * 4095}};
  const std::vector<double> x = {1, -2, 3, 4, 5, -6};  // [[1, -2, 3], [4, 5, -6]]
  // [2, 3, 4]: arange(24) % 7 − 3
  const std::vector<double> y = {-3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1};
  cases.values = {{"columns, dropped", {{2, 3}}, {x}, {{"axis", 0}, {"keepdim", 0}}, {1, -2, -6}},
                  {"every axis: rank 0", {{2, 3, 4}}, {y}, {{"axis", 0}, {"count", 3}, {"keepdim", 0}}, {-3}},
                  {"NaN propagates", {{3}}, {{1, kNaN, -3}}, {}, {kNaN}}};
  return cases;
}

}  // namespace kbv::ops::amin
