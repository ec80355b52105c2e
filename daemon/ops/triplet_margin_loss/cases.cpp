// daemon/ops/triplet_margin_loss/cases.cpp — triplet_margin_loss's test cases (ops/op_cases.hpp).
// The hand-worked values were checked with PyTorch 2.11 on the CPU in float64
// (torch.nn.functional.triplet_margin_loss).
#include "ops/op_cases.hpp"

#include <limits>

namespace kbv::ops::triplet_margin_loss {

OpCases cases() {
  OpCases cases;
  const Shape small{16, 256};
  cases.samples = {{"rows", {small, small, small}, {}},                      // float4 rows
                   {"odd", {{7, 33}, {7, 33}, {7, 33}}, {}},                 // scalar rows
                   {"swap", {small, small, small}, {{"swap", 1}}},
                   {"p1_margin2", {{9, 40}, {9, 40}, {9, 40}}, {{"p", 1}, {"margin", 2}}},
                   {"p3", {{5, 64}, {5, 64}, {5, 64}}, {{"p", 3}, {"eps", 0.01}}},
                   {"many_rows", {{3000, 8}, {3000, 8}, {3000, 8}}, {{"margin", 4}}}};
  cases.shapes = {{{{32768, 8192}, {32768, 8192}, {32768, 8192}}, {}, {}}};
  cases.rejects = {{{{4, 5}, {4, 5}, {4, 6}}, {}, "expected anchor, positive and negative of one shape"},
                   {{{20}, {20}, {20}}, {}, "expected rank 2 [N, D]"},
                   {{{4, 5}, {4, 5}, {4, 5}}, {{"margin", 0}}, "expected margin > 0"},
                   {{{4, 5}, {4, 5}, {4, 5}}, {{"p", 0}}, "expected p > 0"},
                   {{{4, 5}, {4, 5}, {4, 5}}, {{"swap", 0.5}}, "attribute swap is 0.5"}};
  cases.costs = {{{{32768, 8192}, {32768, 8192}, {32768, 8192}}, {}, 6.0 * 32768 * 8192}};
  // Row 0: d(a, p) = 5, d(a, n) = 1, loss 5; row 1: d(a, p) = 0, d(a, n) = 5, loss 0 (eps 0).
  const std::vector<Shape> two_rows{{2, 2}, {2, 2}, {2, 2}};
  const std::vector<std::vector<double>> data{{0, 0, 1, 2}, {3, 4, 1, 2}, {1, 0, 4, 6}};
  const Attrs no_eps{{"eps", 0}};
  // a = 0, p = 1, n = 3 on one axis: d(a, n) = 3 but d(p, n) = 2, which swap takes.
  const std::vector<Shape> one_row{{1, 2}, {1, 2}, {1, 2}};
  const std::vector<std::vector<double>> swap_data{{0, 0}, {1, 0}, {3, 0}};
  const double nan = std::numeric_limits<double>::quiet_NaN();
  cases.values = {{"defaults (eps 1e-6 added to every difference)", two_rows, data, {}, {2.499999799999752}},
                  {"eps 0", two_rows, data, no_eps, {2.5}},
                  {"margin 2", two_rows, data, {{"margin", 2}, {"eps", 0}}, {3.0}},
                  {"p 1", two_rows, data, {{"p", 1}, {"eps", 0}}, {3.5}},
                  {"p 3", two_rows, data, {{"p", 3}, {"eps", 0}}, {2.2489707226377074}},
                  {"without swap", one_row, swap_data, {{"margin", 2}, {"eps", 0}}, {0.0}},
                  {"swap takes d(p, n) when smaller", one_row, swap_data,
                   {{"margin", 2}, {"eps", 0}, {"swap", 1}}, {1.0}},
                  {"a NaN anchor makes the loss NaN (clamp_min propagates it)", one_row,
                   {{nan, 0}, {1, 0}, {3, 0}}, {}, {nan}}};
  return cases;
}

}  // namespace kbv::ops::triplet_margin_loss
