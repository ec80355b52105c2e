// daemon/ops/sum/cases.cpp — sum's test cases (ops/op_cases.hpp).
#include "ops/op_cases.hpp"

namespace kbv::ops::sum {

OpCases cases() {
  OpCases cases = axis_reduction_cases();
  // extent − 1 additions per output (KernelBench L1 #47).
  cases.costs = {{{{128, 4096, 4095}}, {{"axis", 1}}, 128.0 * 4095 * 4095}};
  const std::vector<double> x = {1, 2, 3, 4, 5, 6};  // [[1, 2, 3], [4, 5, 6]]
  cases.values = {{"rows, kept", {{2, 3}}, {x}, {}, {6, 15}},
                  {"columns, dropped", {{2, 3}}, {x}, {{"axis", 0}, {"keepdim", 0}}, {5, 7, 9}},
                  {"the middle axis, as sum_dim1", {{2, 2, 2}}, {{1, 2, 3, 4, 5, 6, 7, 8}},
                   {{"axis", 1}}, {4, 6, 12, 14}}};
  return cases;
}

}  // namespace kbv::ops::sum
