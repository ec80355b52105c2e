// daemon/ops/norm/cases.cpp — norm's test cases (ops/op_cases.hpp). Expected values from
// torch.linalg.vector_norm and torch.norm in float64 (PyTorch 2.11, CPU).
#include "ops/op_cases.hpp"

namespace kbv::ops::norm {

OpCases cases() {
  OpCases cases = axis_reduction_cases();
  cases.samples.push_back({"l1_rows", {{6, 100}}, {{"p", 1}}});
  cases.samples.push_back({"p3_columns", {{4, 32, 33}}, {{"p", 3}, {"axis", 1}}});
  // L1 #37: torch.norm(x, p='fro') of a [112, 64, 512, 512]: 2 per element.
  cases.costs = {{{{112, 64, 512, 512}}, {{"axis", 0}, {"count", 4}, {"keepdim", 0}}, 2.0 * 112 * 64 * 512 * 512}};
  const std::vector<double> x = {1, -2, 3, 4, 5, -6};  // [[1, -2, 3], [4, 5, -6]]
  cases.values = {{"2-norm of rows", {{2, 3}}, {x}, {}, {3.7416573867739413, 8.774964387392123}},
                  {"1-norm of columns", {{2, 3}}, {x}, {{"p", 1}, {"axis", 0}}, {5, 7, 9}},
                  {"3-norm of everything", {{2, 3}}, {x}, {{"p", 3}, {"axis", 0}, {"count", 2}, {"keepdim", 0}},
                   {7.611662611020244}},
                  {"Frobenius", {{2, 3}}, {x}, {{"axis", 0}, {"count", 2}, {"keepdim", 0}}, {9.539392014169456}}};
  cases.rejects.push_back({{{3, 4}}, {{"p", 0}}, "expected a finite p > 0"});
  cases.rejects.push_back({{{3, 4}}, {{"p", -1}}, "expected a finite p > 0"});
  return cases;
}

}  // namespace kbv::ops::norm
