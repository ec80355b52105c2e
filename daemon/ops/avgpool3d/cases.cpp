// daemon/ops/avgpool3d/cases.cpp — avgpool3d's test cases (ops/op_cases.hpp). Expected values
// are PyTorch 2.11's torch.nn.functional.avg_pool3d on the CPU in float64.
#include "ops/op_cases.hpp"

namespace kbv::ops::avgpool3d {

OpCases cases() {
  OpCases cases;
  const Attrs l1_46 = {{"kernel", 3}, {"stride", 2}, {"padding", 1}};
  const Attrs per_axis_ceil = {{"kernel_d", 1}, {"kernel", 2}, {"stride_h", 2}, {"stride", 1},
                               {"padding_d", 0}, {"padding", 1}, {"ceil_mode", 1}};
  const Attrs k2_s2_p1_ceil_exclude = {{"kernel", 2}, {"stride", 2}, {"padding", 1}, {"ceil_mode", 1},
                                       {"count_include_pad", 0}};
  cases.samples = {{"k3_s2_p1", {{2, 2, 8, 9, 12}}, l1_46},  // KernelBench L1 #46's geometry
                   {"defaults", {{1, 3, 6, 7, 8}}, {}},
                   {"per_axis_ceil", {{1, 2, 5, 7, 6}}, per_axis_ceil},
                   {"k2_s2_p1_ceil_exclude_pad", {{2, 2, 5, 6, 7}}, k2_s2_p1_ceil_exclude}};
  cases.shapes = {{{{16, 32, 128, 128, 256}}, l1_46, {16, 32, 64, 64, 128}},
                  {{{1, 1, 3, 3, 3}}, per_axis_ceil, {1, 1, 3, 2, 4}},
                  {{{1, 1, 3, 3, 3}}, k2_s2_p1_ceil_exclude, {1, 1, 2, 2, 2}}};
  cases.rejects = {{{{1, 1, 8, 8, 8}}, {{"kernel", 3}, {"padding", 2}}, "expected padding <= kernel/2 (1)"},
                   {{{1, 1, 2, 8, 8}}, {{"kernel", 3}}, "does not fit the input's size 2 along D"},
                   {{{1, 8, 8, 8}}, {}, "expected rank 5 [N, C, D, H, W]"},
                   {{{1, 1, 8, 8, 8}}, {{"kernel_w", 0}}, "expected -1 (the value of kernel) or an integer >= 1"}};
  cases.costs = {{{{16, 32, 128, 128, 256}}, l1_46, 16.0 * 32 * 64 * 64 * 128},  // one divide per output
                 {{{1, 1, 3, 3, 3}}, per_axis_ceil, 24.0}};
  const std::vector<double> x = {-5, 2, -2, 5, 1, -3, 4, 0, -4, 3, -1, -5, 2, -2,
                                 5,  1, -3, 4, 0, -4, 3, -1, -5, 2, -2, 5, 1};  // 3×3×3
  cases.values = {
      {"per axis, ceil_mode, count_include_pad", {{1, 1, 3, 3, 3}}, {x}, per_axis_ceil,
       {-1.25, -0.75, 0, -0.5, 2.25, 2.5, -1.5, -1.75, 0.75, 0.5, -1.5, -1.25,
        0.75, -0.5, 1, 2.25, 0, -1, -0.25, 0.75, -0.75, -0.75, 0.75, 0.75}},
      {"k2 s2 p1 ceil_mode, the taps inside only", {{1, 1, 3, 3, 3}}, {x}, k2_s2_p1_ceil_exclude,
       {-5, 0, 4.5, -1.5, 1.5, -1.75, 0, 0.875}}};
  return cases;
}

}  // namespace kbv::ops::avgpool3d
