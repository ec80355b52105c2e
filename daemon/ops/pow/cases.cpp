// daemon/ops/pow/cases.cpp — pow's test cases (ops/op_cases.hpp). Expected values from torch.pow
// in float64 (PyTorch 2.11, CPU).
#include <limits>

#include "ops/op_cases.hpp"

namespace kbv::ops::pow {

OpCases cases() {
  OpCases cases = unary_cases();
  cases.samples.push_back({"cube", {{9, 64}}, {{"exponent", 3}}});
  cases.samples.push_back({"square_root", {{6, 20}}, {{"exponent", 0.5}}});  // magnitudes: its domain
  cases.values.push_back({"squares by default", {{2}}, {{-3, 0.5}}, {}, {9, 0.25}});
  cases.values.push_back({"cubes keep the sign", {{3}}, {{-2, 0.5, 1.5}}, {{"exponent", 3}}, {-8, 0.125, 3.375}});
  cases.values.push_back({"a fractional power of a negative is NaN", {{3}}, {{4, 2, -1}}, {{"exponent", 0.5}},
                          {2, 1.4142135623730951, std::numeric_limits<double>::quiet_NaN()}});
  return cases;
}

}  // namespace kbv::ops::pow
