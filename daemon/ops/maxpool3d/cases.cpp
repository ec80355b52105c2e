// daemon/ops/maxpool3d/cases.cpp — maxpool3d's test cases (ops/op_cases.hpp). Expected values
// are PyTorch 2.11's torch.nn.functional.max_pool3d on the CPU in float64.
#include "ops/op_cases.hpp"

namespace kbv::ops::maxpool3d {

OpCases cases() {
  OpCases cases;
  const Attrs l1_43 = {{"kernel", 3}, {"stride", 2}, {"padding", 1}, {"dilation", 3}};
  cases.samples = {
      {"k3_s2_p1_d3", {{2, 2, 12, 11, 13}}, l1_43},  // KernelBench L1 #43's geometry
      {"defaults", {{1, 3, 6, 7, 8}}, {}},
      {"k3_s2_ceil", {{2, 2, 7, 8, 9}}, {{"kernel", 3}, {"stride", 2}, {"ceil_mode", 1}}},
      {"per_axis", {{1, 2, 5, 9, 10}},
       {{"kernel_d", 1}, {"kernel_h", 2}, {"kernel_w", 3}, {"stride_w", 2}, {"padding_h", 1}, {"dilation_h", 2}}}};
  cases.shapes = {{{{16, 32, 128, 128, 128}}, l1_43, {16, 32, 62, 62, 62}},
                  {{{1, 1, 4, 5, 6}}, {}, {1, 1, 2, 2, 3}},
                  {{{1, 1, 3, 3, 3}}, {{"kernel", 2}, {"stride", 2}, {"ceil_mode", 1}}, {1, 1, 2, 2, 2}},
                  {{{1, 1, 3, 3, 3}}, {{"kernel_d", 1}, {"kernel_h", 2}, {"kernel_w", 3}, {"stride", 1},
                                       {"stride_w", 2}, {"padding_h", 1}, {"padding_w", 1}},
                   {1, 1, 3, 4, 2}}};
  cases.rejects = {{{{1, 1, 8, 8, 8}}, {{"kernel", 3}, {"padding", 2}}, "expected padding <= kernel/2 (1)"},
                   {{{1, 1, 8, 2, 8}}, {{"kernel", 3}}, "does not fit the input's size 2 along H"},
                   {{{1, 8, 8, 8}}, {}, "expected rank 5 [N, C, D, H, W]"},
                   {{{1, 1, 8, 8, 8}}, {{"dilation_d", 0}}, "expected -1 (the value of dilation) or an integer >= 1"}};
  cases.costs = {
      // L1 #43: 62 windows per axis, the first with taps −1, 2, 5 (two inside), the others with
      // three inside: every output counts, 16·32·62³.
      {{{16, 32, 128, 128, 128}}, l1_43, 16.0 * 32 * 62 * 62 * 62},
      // k2 s1 p1 over 3³: 4 windows per axis, the outer two hold one element each; only the 8
      // corner windows hold a single element: 64 − 8.
      {{{1, 1, 3, 3, 3}}, {{"kernel", 2}, {"stride", 1}, {"padding", 1}}, 56.0}};
  const std::vector<double> x = {-5, 2, -2, 5, 1, -3, 4, 0, -4, 3, -1, -5, 2, -2,
                                 5,  1, -3, 4, 0, -4, 3, -1, -5, 2, -2, 5, 1};  // 3×3×3
  cases.values = {
      {"k2 s2 ceil_mode: edge windows hold one slab", {{1, 1, 3, 3, 3}}, {x},
       {{"kernel", 2}, {"stride", 2}, {"ceil_mode", 1}}, {5, 5, 4, 4, 0, 3, 5, 1}},
      {"k2 s1 dilation 2: one window of the 8 corners", {{1, 1, 3, 3, 3}}, {x},
       {{"kernel", 2}, {"stride", 1}, {"dilation", 2}}, {4}},
      {"per axis: kernel 1x2x3, stride 1x1x2, padding 0x1x1", {{1, 1, 3, 3, 3}}, {x},
       {{"kernel_d", 1}, {"kernel_h", 2}, {"kernel_w", 3}, {"stride", 1}, {"stride_w", 2}, {"padding_h", 1},
        {"padding_w", 1}},
       {2, 2, 5, 2, 5, 1, 4, 0, 3, -1, 3, 5, 2, 5, 1, 4, 0, 3, 0, 3, 5, 5, 5, 5}}};
  return cases;
}

}  // namespace kbv::ops::maxpool3d
