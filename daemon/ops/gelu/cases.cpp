// daemon/ops/gelu/cases.cpp — gelu's test cases (ops/op_cases.hpp).
#include "ops/op_cases.hpp"

namespace kbv::ops::gelu {

OpCases cases() {
  OpCases cases = unary_cases();
  cases.samples.push_back({"odd_rows", {{16, 257}}, {}});
  // Φ(1) = 0.8413447460685429, so gelu(1) = Φ(1) and gelu(-1) = -(1 - Φ(1)).
  cases.values.push_back({"x·Φ(x)", {{3}}, {{1, -1, 0}}, {},
                          {0.8413447460685429, -0.15865525393145707, 0}});
  return cases;
}

}  // namespace kbv::ops::gelu
