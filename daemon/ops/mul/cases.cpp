// daemon/ops/mul/cases.cpp — mul's test cases (ops/op_cases.hpp).
#include "ops/op_cases.hpp"

namespace kbv::ops::mul {

OpCases cases() {
  OpCases cases = binary_cases();
  // A per-channel factor, as KernelBench L2's [O, 1, 1] bias broadcasts.
  cases.values.push_back({"[2, 2, 2] · [2, 1, 1]", {{2, 2, 2}, {2, 1, 1}},
                          {{1, 2, 3, 4, 5, 6, 7, 8}, {10, -1}}, {},
                          {10, 20, 30, 40, -5, -6, -7, -8}});
  return cases;
}

}  // namespace kbv::ops::mul
