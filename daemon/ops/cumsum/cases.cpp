// daemon/ops/cumsum/cases.cpp — cumsum's test cases (ops/op_cases.hpp). Expected values from
// torch.cumsum in float64 (PyTorch 2.11, CPU); reversed as x.flip(1).cumsum(1).flip(1).
#include "ops/op_cases.hpp"

namespace kbv::ops::cumsum {

OpCases cases() {
  OpCases cases = scan_cases();
  const std::vector<double> x = {1, 2, 3, 4, 0.5, -1, 2, 0.25};  // [[1, 2, 3, 4], [0.5, -1, 2, 0.25]]
  cases.values = {{"rows", {{2, 4}}, {x}, {}, {1, 3, 6, 10, 0.5, -0.5, 1.5, 1.75}},
                  {"reverse", {{2, 4}}, {x}, {{"reverse", 1}}, {10, 9, 7, 4, 1.75, 1.25, 2.25, 0.25}},
                  {"exclusive: 0 first (L1 #92's cat of zeros and a shorter cumsum)", {{2, 4}}, {x},
                   {{"exclusive", 1}}, {0, 1, 3, 6, 0, 0.5, -0.5, 1.5}},
                  {"reverse and exclusive", {{2, 4}}, {x}, {{"reverse", 1}, {"exclusive", 1}},
                   {9, 7, 4, 0, 1.25, 2.25, 0.25, 0}},
                  {"along axis 0", {{2, 4}}, {x}, {{"axis", 0}}, {1, 2, 3, 4, 1.5, 1, 5, 4.25}}};
  return cases;
}

}  // namespace kbv::ops::cumsum
