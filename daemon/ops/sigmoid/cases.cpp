// daemon/ops/sigmoid/cases.cpp — sigmoid's test cases (ops/op_cases.hpp).
#include "ops/op_cases.hpp"

namespace kbv::ops::sigmoid {

OpCases cases() {
  OpCases cases = unary_cases();
  cases.samples.push_back({"one_row", {{1000}}, {}});
  cases.values.push_back({"0, 2 and an overflowing exp(1000)", {{3}}, {{0, 2, -1000}}, {},
                          {0.5, 0.8807970779778823, 0}});
  return cases;
}

}  // namespace kbv::ops::sigmoid
