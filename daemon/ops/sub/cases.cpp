// daemon/ops/sub/cases.cpp — sub's test cases (ops/op_cases.hpp).
#include "ops/op_cases.hpp"

namespace kbv::ops::sub {

OpCases cases() {
  OpCases cases = binary_cases();
  cases.values.push_back({"[2, 1] − [1, 3] broadcasts both", {{2, 1}, {1, 3}}, {{10, 20}, {1, 2, 3}},
                          {}, {9, 8, 7, 19, 18, 17}});
  cases.values.push_back({"the order of the operands matters", {{2}, {2}}, {{1, 5}, {3, 2}}, {}, {-2, 3}});
  return cases;
}

}  // namespace kbv::ops::sub
