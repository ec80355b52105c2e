// daemon/ops/maxpool1d/cases.cpp — maxpool1d's test cases (ops/op_cases.hpp). Expected values
// are PyTorch 2.11's torch.nn.functional.max_pool1d on the CPU in float64.
#include "ops/op_cases.hpp"

#include <limits>

namespace kbv::ops::maxpool1d {

OpCases cases() {
  OpCases cases;
  const Attrs l1_41 = {{"kernel", 8}, {"stride", 1}, {"padding", 4}, {"dilation", 3}};
  cases.samples = {
      {"k8_s1_p4_d3", {{2, 3, 100}}, l1_41},  // KernelBench L1 #41's geometry
      {"defaults", {{2, 3, 9}}, {}},
      {"k3_s2_p1_ceil", {{2, 3, 10}}, {{"kernel", 3}, {"stride", 2}, {"padding", 1}, {"ceil_mode", 1}}},
      {"k4_s3_dilated_ceil", {{1, 2, 31}}, {{"kernel", 4}, {"stride", 3}, {"dilation", 2}, {"ceil_mode", 1}}}};
  cases.shapes = {{{{64, 192, 65536}}, l1_41, {64, 192, 65523}},
                  {{{1, 1, 7}}, {}, {1, 1, 3}},
                  // ceil_mode: windows at 0, 2, 4 and 6; the one at 6 starts in the input.
                  {{{1, 1, 7}}, {{"kernel", 2}, {"stride", 2}, {"ceil_mode", 1}}, {1, 1, 4}},
                  // ceil_mode would add a window at 6, but it would start in the right padding.
                  {{{1, 1, 5}}, {{"kernel", 3}, {"stride", 3}, {"padding", 1}, {"ceil_mode", 1}}, {1, 1, 2}}};
  cases.rejects = {{{{1, 1, 8}}, {{"kernel", 3}, {"padding", 2}}, "expected padding <= kernel/2 (1)"},
                   {{{1, 1, 2}}, {{"kernel", 3}}, "does not fit the input's size 2"},
                   {{{1, 8}}, {}, "expected rank 3 [N, C, L]"},
                   {{{1, 1, 8}}, {{"stride", -1}}, "expected an integer >= 0"},
                   {{{1, 1, 8}}, {{"ceil_mode", 2}}, "expected 0 (false) or 1 (true)"},
                   // Review: 2^40 output positions took hours of pool_flops at every catalog load.
                   {{{1, 1, 1099511627776}}, {{"kernel", 1}}, "output positions are beyond 67108864"}};
  cases.costs = {
      // L1 #41: every window holds at least six input elements (the first's taps −4, −1, 2, …:
      // six inside), so every output counts, 64·192·65523.
      {{{64, 192, 65536}}, l1_41, 64.0 * 192 * 65523},
      // k3 s2 p1 over 7: windows [-1, 1], [1, 3], [3, 5], [5, 7]: every one holds two or more.
      {{{1, 1, 7}}, {{"kernel", 3}, {"stride", 2}, {"padding", 1}}, 4.0},
      // Dilation 3, padding 1 over 2 elements: the one window's taps (−1, 2) are both padding.
      {{{1, 1, 2}}, {{"kernel", 2}, {"stride", 2}, {"padding", 1}, {"dilation", 3}}, 0.0}};
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> x = {3, -1, 4, 1, -5, 9, 2};
  cases.values = {
      {"k3 s2 p1: padding is −inf", {{1, 1, 7}}, {x}, {{"kernel", 3}, {"stride", 2}, {"padding", 1}}, {3, 4, 9, 9}},
      {"k2 s1 p1 dilation 2", {{1, 1, 7}}, {x}, {{"kernel", 2}, {"stride", 1}, {"padding", 1}, {"dilation", 2}},
       {-1, 4, 1, 4, 9, 2, 9}},
      {"ceil_mode keeps a last window that starts in the input", {{1, 1, 6}}, {{3, -1, 4, 1, -5, 9}},
       {{"kernel", 3}, {"stride", 2}, {"padding", 1}, {"ceil_mode", 1}}, {3, 4, 9, 9}},
      {"a NaN in the window wins", {{1, 1, 7}}, {{3, -1, 4, kNaN, -5, 9, 2}}, {{"kernel", 3}, {"stride", 2}},
       {4, kNaN, 9}}};
  return cases;
}

}  // namespace kbv::ops::maxpool1d
