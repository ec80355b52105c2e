// daemon/ops/add/cases.cpp — add's test cases (ops/op_cases.hpp).
#include "ops/op_cases.hpp"

namespace kbv::ops::add {

OpCases cases() {
  OpCases cases = binary_cases();
  cases.values.push_back({"[2, 1] + [1, 3] broadcasts both", {{2, 1}, {1, 3}}, {{10, 20}, {1, 2, 3}},
                          {}, {11, 12, 13, 21, 22, 23}});
  cases.values.push_back({"[3] + [2, 3]: the lower rank aligns on the right", {{3}, {2, 3}},
                          {{1, 2, 3}, {0, 0, 0, 10, 10, 10}}, {}, {1, 2, 3, 11, 12, 13}});
  return cases;
}

}  // namespace kbv::ops::add
