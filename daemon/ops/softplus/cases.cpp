// daemon/ops/softplus/cases.cpp — softplus's test cases (ops/op_cases.hpp).
#include "ops/op_cases.hpp"

namespace kbv::ops::softplus {

OpCases cases() {
  OpCases cases = unary_cases();
  cases.samples.push_back({"beta_threshold", {{9, 64}}, {{"beta", 2}, {"threshold", 1}}});
  cases.values.push_back({"log(1 + exp(x)), x above the threshold", {{4}}, {{0, 1, -3, 30}}, {},
                          {0.6931471805599453, 1.3132616875182228, 0.04858735157374206, 30}});
  cases.values.push_back({"beta 2", {{1}}, {{1}}, {{"beta", 2}}, {1.0634640055214863}});
  cases.values.push_back({"threshold 0.5", {{2}}, {{1, 0}}, {{"threshold", 0.5}}, {1, 0.6931471805599453}});
  cases.rejects.push_back({{{2}}, {{"beta", 0}}, "expected a nonzero number"});
  return cases;
}

}  // namespace kbv::ops::softplus
