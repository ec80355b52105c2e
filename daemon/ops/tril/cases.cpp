// daemon/ops/tril/cases.cpp — tril's test cases (ops/op_cases.hpp). Expected values from
// torch.tril (PyTorch 2.11, CPU).
#include "ops/op_cases.hpp"

namespace kbv::ops::tril {

OpCases cases() {
  OpCases cases = triangle_cases();
  const std::vector<double> x = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};  // [3, 4]: 1 … 12
  cases.values = {{"the main diagonal and below", {{3, 4}}, {x}, {}, {1, 0, 0, 0, 5, 6, 0, 0, 9, 10, 11, 0}},
                  {"one diagonal above", {{3, 4}}, {x}, {{"diagonal", 1}}, {1, 2, 0, 0, 5, 6, 7, 0, 9, 10, 11, 12}},
                  // x.masked_fill(~torch.ones(3, 4, dtype=torch.bool).tril(), -7)
                  {"filled above the diagonal", {{3, 4}}, {x}, {{"fill", -7}}, {1, -7, -7, -7, 5, 6, -7, -7, 9, 10, 11, -7}}};
  return cases;
}

}  // namespace kbv::ops::tril
