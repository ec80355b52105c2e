// daemon/ops/mean/cases.cpp — mean's test cases (ops/op_cases.hpp).
#include "ops/op_cases.hpp"

namespace kbv::ops::mean {

OpCases cases() {
  OpCases cases = axis_reduction_cases();
  // The sum's extent − 1 additions plus one division per output: numel(in).
  cases.costs = {{{{4, 10}}, {}, 40.0}};
  const std::vector<double> x = {1, 2, 3, 4, 5, 6};  // [[1, 2, 3], [4, 5, 6]]
  cases.values = {{"rows", {{2, 3}}, {x}, {}, {2, 5}},
                  {"a negative axis", {{2, 3}}, {x}, {{"axis", -2}}, {2.5, 3.5, 4.5}}};
  return cases;
}

}  // namespace kbv::ops::mean
