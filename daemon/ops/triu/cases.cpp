// daemon/ops/triu/cases.cpp — triu's test cases (ops/op_cases.hpp). Expected values from
// torch.triu (PyTorch 2.11, CPU).
#include "ops/op_cases.hpp"

namespace kbv::ops::triu {

OpCases cases() {
  OpCases cases = triangle_cases();
  const std::vector<double> x = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};  // [3, 4]: 1 … 12
  cases.values = {{"the main diagonal and above", {{3, 4}}, {x}, {}, {1, 2, 3, 4, 0, 6, 7, 8, 0, 0, 11, 12}},
                  {"one diagonal below", {{3, 4}}, {x}, {{"diagonal", -1}}, {1, 2, 3, 4, 5, 6, 7, 8, 0, 10, 11, 12}},
                  {"each matrix of a batch", {{2, 2, 2}}, {{1, 2, 3, 4, 5, 6, 7, 8}}, {{"diagonal", 1}},
                   {0, 2, 0, 0, 0, 6, 0, 0}}};
  return cases;
}

}  // namespace kbv::ops::triu
