// daemon/ops/cumprod/cases.cpp — cumprod's test cases (ops/op_cases.hpp). Expected values from
// torch.cumprod in float64 (PyTorch 2.11, CPU); reversed as x.flip(1).cumprod(1).flip(1).
#include "ops/op_cases.hpp"

namespace kbv::ops::cumprod {

OpCases cases() {
  OpCases cases = scan_cases();
  const std::vector<double> x = {1, 2, 3, 4, 0.5, -1, 2, 0.25};  // [[1, 2, 3, 4], [0.5, -1, 2, 0.25]]
  cases.values = {{"rows", {{2, 4}}, {x}, {}, {1, 2, 6, 24, 0.5, -0.5, -1, -0.25}},
                  {"reverse", {{2, 4}}, {x}, {{"reverse", 1}}, {24, 24, 12, 4, -0.25, -0.5, 0.5, 0.25}},
                  {"exclusive: 1 first", {{2, 4}}, {x}, {{"exclusive", 1}}, {1, 1, 2, 6, 1, 0.5, -0.5, -1}},
                  {"a zero stays", {{4}}, {{2, 0, 3, 5}}, {}, {2, 0, 0, 0}}};
  return cases;
}

}  // namespace kbv::ops::cumprod
