// daemon/ops/smooth_l1_loss/cases.cpp — smooth_l1_loss's test cases (ops/op_cases.hpp). The
// hand-worked values were checked with PyTorch 2.11 on the CPU in float64
// (torch.nn.functional.smooth_l1_loss).
#include "ops/op_cases.hpp"

#include <limits>

namespace kbv::ops::smooth_l1_loss {

OpCases cases() {
  OpCases cases;
  cases.samples = {{"rows", {{16, 1024}, {16, 1024}}, {}},
                   {"beta_half", {{7, 33}, {7, 33}}, {{"beta", 0.5}}},
                   {"beta_zero", {{5, 9}, {5, 9}}, {{"beta", 0}}},      // the L1 loss
                   {"many_blocks", {{64, 4096}, {64, 4096}}, {}},       // a full wave of blocks
                   {"one_element", {{1}, {1}}, {}},
                   {"rank3", {{3, 5, 7}, {3, 5, 7}}, {{"beta", 2}}}};
  cases.shapes = {{{{32768, 32768}, {32768, 32768}}, {}, {}},
                  {{{2, 3, 4}, {2, 3, 4}}, {{"beta", 0}}, {}}};
  cases.rejects = {{{{4, 5}, {4, 1}}, {}, "expected a and b of one shape"},
                   {{{4, 5}, {5, 4}}, {}, "input 1 has shape [5, 4]"},
                   {{{4, 5}, {4, 5}}, {{"beta", -1}}, "expected beta >= 0"}};
  cases.costs = {{{{32768, 32768}, {32768, 32768}}, {}, 3.0 * 32768 * 32768}};
  // d = a − b = (−0.5, 2, −2, 0): beta 1 gives 0.125, 1.5, 1.5, 0; beta 0.5: 0.25, 1.75, 1.75, 0.
  const std::vector<Shape> four{{4}, {4}};
  const std::vector<std::vector<double>> data{{0, 2, -1, 0.5}, {0.5, 0, 1, 0.5}};
  const double nan = std::numeric_limits<double>::quiet_NaN();
  cases.values = {{"beta 1: quadratic below 1, linear above", four, data, {}, {0.78125}},
                  {"beta 0.5", four, data, {{"beta", 0.5}}, {0.9375}},
                  {"beta 0: mean |a − b|", four, data, {{"beta", 0}}, {1.125}},
                  {"a NaN makes the mean NaN", {{1, 2}, {1, 2}}, {{1, nan}, {0, 0}}, {}, {nan}}};
  return cases;
}

}  // namespace kbv::ops::smooth_l1_loss
