// daemon/ops/conv_transpose2d/cases.cpp — conv_transpose2d's test cases (ops/op_cases.hpp). Hand-
// worked values are PyTorch's (torch.nn.functional.conv_transpose2d in float64 on the CPU, torch
// 2.11).
#include "ops/op_cases.hpp"

namespace kbv::ops::conv_transpose2d {

OpCases cases() {
  OpCases cases;
  cases.samples = {
      {"plain", {{2, 4, 9, 10}, {4, 6, 3, 3}}, {}},
      // KernelBench L1 #65/#78's form: an asymmetric kernel, padding (1, 3).
      {"asymmetric_padded", {{2, 4, 8, 11}, {4, 5, 3, 7}, {5}}, {{"padding_h", 1}, {"padding_w", 3}}},
      {"strided_padded", {{2, 4, 7, 6}, {4, 6, 3, 3}}, {{"stride", 2}, {"padding", 1}, {"output_padding", 1}}},
      // KernelBench L1 #75's form: stride (2, 3), padding (1, 2), dilation (2, 1), groups.
      {"per_axis_grouped", {{2, 8, 6, 7}, {8, 3, 3, 5}, {12}},
       {{"stride_h", 2}, {"stride_w", 3}, {"padding_h", 1}, {"padding_w", 2}, {"dilation_h", 2}, {"groups", 4}}},
      // KernelBench L1 #81's form: stride 5, padding 1, dilation 2.
      {"wide_stride_dilated", {{2, 3, 4, 5}, {3, 4, 3, 3}}, {{"stride", 5}, {"padding", 1}, {"dilation", 2}}},
      {"output_padding_per_axis", {{1, 4, 5, 6}, {4, 4, 2, 3}, {4}},
       {{"stride", 3}, {"output_padding_h", 2}, {"output_padding_w", 1}}}};
  cases.shapes = {
      // KernelBench L1 #57, #65, #75, #81: (size − 1)·s − 2p + d(k − 1) + output_padding + 1.
      {{{8, 64, 1024, 1024}, {64, 64, 3, 3}}, {}, {8, 64, 1026, 1026}},
      {{{8, 64, 512, 512}, {64, 64, 3, 7}}, {}, {8, 64, 514, 518}},
      {{{16, 32, 128, 256}, {32, 16, 3, 5}},
       {{"stride", 2}, {"stride_w", 3}, {"padding", 1}, {"padding_w", 2}, {"dilation", 2}, {"dilation_w", 1},
        {"groups", 4}},
       {16, 64, 257, 766}},
      {{{16, 32, 64, 128}, {32, 64, 3, 3}}, {{"stride", 5}, {"padding", 1}, {"dilation", 2}}, {16, 64, 318, 638}}};
  cases.rejects = {
      {{{1, 4, 8, 8}, {3, 6, 3, 3}}, {}, "expected weight.shape[0] == 4 (x's channels)"},
      {{{1, 4, 8, 8}, {4, 2, 3, 3}}, {{"groups", 3}}, "expected C to be a multiple of groups"},
      {{{1, 4, 8, 8}, {4, 2, 3, 3}}, {{"stride", 2}, {"output_padding_w", 2}},
       "attribute output_padding_w is 2 with stride 2 and dilation 1; expected output_padding < max(stride, dilation)"},
      {{{1, 1, 1, 3}, {1, 1, 1, 1}}, {{"padding_h", 1}}, "output size -1x3 for input 1x3, kernel 1x1"},
      {{{1, 4, 8, 8}, {4, 3, 3, 3}, {3}}, {{"groups", 2}}, "expected [6] (weight.shape[1]·groups)"},
      {{{1, 4, 8}, {4, 2, 3, 3}}, {}, "expected rank 4 [N, C, H, W]"},
      {{{1, 4, 8, 8}, {4, 2, 3}}, {}, "expected rank 4 [C, O/groups, KH, KW]"},
      {{{1, 4, 8, 8}, {4, 2, 3, 3}}, {{"dilation_h", 0}}, "attribute dilation_h is 0; expected an integer >= 1"},
      {{{1, 4, 8, 8}, {4, 2, 3, 3}}, {{"output_padding_h", -3}}, "expected an integer >= -1"}};
  cases.costs = {
      // KernelBench L1 #57: 2·N·C·O·H·W·KH·KW, every tap landing when padding is 0.
      {{{8, 64, 1024, 1024}, {64, 64, 3, 3}}, {}, 2.0 * 8 * 64 * 64 * 1024 * 1024 * 9},
      {{{2, 8, 5, 6}, {8, 3, 3, 2}}, {{"groups", 4}}, 2.0 * 2 * 8 * 3 * 5 * 6 * 3 * 2},
      // Padding (1, 0), stride 2, output_padding (1, 0), 3x3 kernel over 2x3: along H the first
      // tap of row 0 falls at −1, so 5 of the 6 (row, tap) pairs land; along W all 9 do.
      {{{1, 1, 2, 3}, {1, 1, 3, 3}}, {{"stride", 2}, {"padding_h", 1}, {"output_padding_h", 1}}, 2.0 * 5 * 9}};
  const std::vector<double> x = {1, 2, 3, 4};
  cases.values = {
      {"each pixel scatters its 2x2 footprint", {{1, 1, 2, 2}, {1, 1, 2, 2}}, {x, {1, 10, 100, 1000}}, {},
       {1, 12, 20, 103, 1234, 2040, 300, 3400, 4000}},
      {"stride (2, 3) leaves gaps that only the bias fills", {{1, 1, 2, 2}, {1, 1, 1, 2}, {1}}, {x, {1, 10}, {0.5}},
       {{"stride_h", 2}, {"stride_w", 3}},
       {1.5, 10.5, 0.5, 2.5, 20.5, 0.5, 0.5, 0.5, 0.5, 0.5, 3.5, 30.5, 0.5, 4.5, 40.5}},
      {"stride 2, padding (1, 0), output_padding (1, 0)", {{1, 1, 2, 3}, {1, 1, 3, 3}},
       {{1, 2, 3, 4, 5, 6}, std::vector<double>(9, 1)}, {{"stride", 2}, {"padding_h", 1}, {"output_padding_h", 1}},
       {1, 1, 3, 2, 5, 3, 3, 5, 5, 12, 7, 16, 9, 9, 4, 4, 9, 5, 11, 6, 6, 4, 4, 9, 5, 11, 6, 6}},
      {"padding (0, 1), dilation (1, 2): the taps at -1 and 2 are dropped", {{1, 1, 2, 2}, {1, 1, 1, 2}},
       {x, {1, 10}}, {{"padding_w", 1}, {"dilation_w", 2}}, {2, 10, 4, 30}},
      {"groups 2: each input channel feeds only its own group", {{1, 2, 1, 2}, {2, 1, 1, 1}}, {x, {1, 10}},
       {{"groups", 2}}, {1, 2, 30, 40}}};
  return cases;
}

}  // namespace kbv::ops::conv_transpose2d
