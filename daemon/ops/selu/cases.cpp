// daemon/ops/selu/cases.cpp — selu's test cases (ops/op_cases.hpp).
#include "ops/op_cases.hpp"

namespace kbv::ops::selu {

OpCases cases() {
  OpCases cases = unary_cases();
  cases.values.push_back({"scale·x above 0, scale·alpha·expm1(x) below", {{4}}, {{1, 0, -1, -2}}, {},
                          {1.0507009873554805, 0, -1.1113307378125625, -1.5201664685956948}});
  return cases;
}

}  // namespace kbv::ops::selu
