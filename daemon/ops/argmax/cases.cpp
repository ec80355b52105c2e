// daemon/ops/argmax/cases.cpp — argmax's test cases (ops/op_cases.hpp). Expected values from
// torch.argmax (PyTorch 2.11, CPU).
#include <limits>

#include "ops/op_cases.hpp"

namespace kbv::ops::argmax {

OpCases cases() {
  OpCases cases = arg_reduction_cases();
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  // extent − 1 comparisons per output (KernelBench L1 #51/#52: a [128, 4096, 4095] over axis 1).
  cases.costs = {{{{128, 4096, 4095}}, {{"axis", 1}}, 128.0 * 4095 * 4095}};
  const std::vector<double> x = {1, -2, 3, 4, 5, -6};  // [[1, -2, 3], [4, 5, -6]]
  cases.values = {{"rows", {{2, 3}}, {x}, {}, {2, 1}},
                  {"columns", {{2, 3}}, {x}, {{"axis", 0}}, {1, 1, 0}},
                  {"the first index on ties", {{4}}, {{3, 1, 3, 1}}, {}, {0}},
                  {"a NaN wins, the first one", {{4}}, {{1, kNaN, 0, kNaN}}, {}, {1}}};
  return cases;
}

}  // namespace kbv::ops::argmax
