// daemon/ops/avgpool2d/cases.cpp — avgpool2d's test cases (ops/op_cases.hpp). Expected values
// are PyTorch 2.11's torch.nn.functional.avg_pool2d on the CPU in float64.
#include "ops/op_cases.hpp"

namespace kbv::ops::avgpool2d {

OpCases cases() {
  OpCases cases;
  const Attrs per_axis_ceil = {{"kernel_h", 2}, {"kernel_w", 3}, {"stride_h", 2}, {"stride_w", 1},
                               {"padding", 1}, {"ceil_mode", 1}};
  Attrs per_axis_ceil_exclude = per_axis_ceil;
  per_axis_ceil_exclude["count_include_pad"] = 0;
  cases.samples = {{"k11", {{1, 2, 45, 47}}, {{"kernel", 11}}},  // KernelBench L1 #45's geometry
                   {"k2_densenet", {{2, 4, 14, 14}}, {{"kernel", 2}, {"stride", 2}}},  // L3 #13-#16's transitions
                   {"k3_s2_p1_ceil", {{2, 3, 10, 11}}, {{"kernel", 3}, {"stride", 2}, {"padding", 1}, {"ceil_mode", 1}}},
                   {"per_axis_ceil", {{2, 2, 9, 8}}, per_axis_ceil},
                   {"per_axis_ceil_exclude_pad", {{2, 2, 9, 8}}, per_axis_ceil_exclude}};
  cases.shapes = {{{{16, 64, 2048, 2048}}, {{"kernel", 11}}, {16, 64, 186, 186}},
                  {{{1, 1, 4, 5}}, per_axis_ceil, {1, 1, 3, 5}},
                  {{{1, 1, 4, 5}}, {{"kernel", 3}, {"stride", 3}, {"padding", 1}}, {1, 1, 2, 2}}};
  cases.rejects = {{{{1, 1, 8, 8}}, {{"kernel", 3}, {"padding", 2}}, "expected padding <= kernel/2 (1)"},
                   {{{1, 1, 8, 2}}, {{"kernel", 3}}, "does not fit the input's size 2 along W"},
                   {{{1, 8, 8}}, {}, "expected rank 4 [N, C, H, W]"},
                   {{{1, 1, 8, 8}}, {{"padding_h", -3}}, "expected -1 (the value of padding) or an integer >= 0"}};
  cases.costs = {{{{16, 64, 2048, 2048}}, {{"kernel", 11}}, 16.0 * 64 * 186 * 186},  // one divide per output
                 {{{1, 1, 4, 5}}, per_axis_ceil, 15.0}};
  const std::vector<double> x = {1, 5, 2, 0, 3, 4, 8, 1, 0, 0, 9, 9, -1, 2, 9, 10, -3, 6, 7, 1};  // 4×5
  cases.values = {
      {"per axis, ceil_mode, count_include_pad", {{1, 1, 4, 5}}, {x}, per_axis_ceil,
       {1, 1.3333333333333333, 1.1666666666666667, 0.8333333333333334, 0.5, 5, 5, 3.1666666666666665,
        1.8333333333333333, 1.8333333333333333, 1.1666666666666667, 2.1666666666666665, 1.6666666666666667,
        2.3333333333333335, 1.3333333333333333}},
      {"per axis, ceil_mode, the taps inside only", {{1, 1, 4, 5}}, {x}, per_axis_ceil_exclude,
       {3, 2.6666666666666665, 2.3333333333333335, 1.6666666666666667, 1.5, 7.5, 5, 3.1666666666666665,
        1.8333333333333333, 2.75, 3.5, 4.333333333333333, 3.3333333333333335, 4.666666666666667, 4}},
      {"k3 s3 p1: the padding counts", {{1, 1, 4, 5}}, {x}, {{"kernel", 3}, {"stride", 3}, {"padding", 1}},
       {2, 0.6666666666666666, 2.7777777777777777, 2.6666666666666665}},
      {"k2 ceil_mode without padding: the last column's windows count two taps", {{1, 1, 4, 5}}, {x},
       {{"kernel", 2}, {"stride", 2}, {"ceil_mode", 1}}, {4.5, 0.75, 1.5, 6.25, 3.5, 5}}};
  return cases;
}

}  // namespace kbv::ops::avgpool2d
