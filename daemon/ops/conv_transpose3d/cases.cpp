// daemon/ops/conv_transpose3d/cases.cpp — conv_transpose3d's test cases (ops/op_cases.hpp). Hand-
// worked values are PyTorch's (torch.nn.functional.conv_transpose3d in float64 on the CPU, torch
// 2.11).
#include "ops/op_cases.hpp"

namespace kbv::ops::conv_transpose3d {

OpCases cases() {
  OpCases cases;
  cases.samples = {
      {"plain", {{2, 3, 4, 5, 6}, {3, 4, 3, 3, 3}}, {}},
      // KernelBench L1 #58's form: an asymmetric kernel.
      {"asymmetric_kernel_bias", {{1, 4, 3, 4, 5}, {4, 3, 3, 5, 2}, {3}}, {}},
      // KernelBench L1 #72's form: stride 2, padding (1, 2, 3), output_padding 1, groups.
      {"strided_padded_grouped", {{2, 8, 3, 4, 5}, {8, 2, 3, 5, 7}},
       {{"stride", 2}, {"padding_d", 1}, {"padding_h", 2}, {"padding_w", 3}, {"output_padding", 1}, {"groups", 4}}},
      // KernelBench L1 #77's form: stride 2, padding 1, dilation 2.
      {"strided_dilated", {{2, 3, 3, 4, 4}, {3, 4, 3, 3, 3}, {4}}, {{"stride", 2}, {"padding", 1}, {"dilation", 2}}},
      {"per_axis", {{1, 4, 3, 4, 5}, {4, 2, 2, 3, 2}, {4}},
       {{"stride_d", 3}, {"stride_h", 1}, {"stride_w", 2}, {"padding_h", 1}, {"dilation_w", 3},
        {"output_padding_d", 2}, {"output_padding_w", 1}, {"groups", 2}}}};
  cases.shapes = {
      // KernelBench L1 #58, #61, #72, #77: (size − 1)·s − 2p + d(k − 1) + output_padding + 1.
      {{{16, 32, 16, 32, 64}, {32, 16, 3, 5, 7}}, {}, {16, 16, 18, 36, 70}},
      {{{8, 48, 64, 64, 64}, {48, 48, 3, 3, 3}}, {}, {8, 48, 66, 66, 66}},
      {{{8, 32, 12, 24, 48}, {32, 8, 3, 5, 7}},
       {{"stride", 2}, {"padding", 1}, {"padding_h", 2}, {"padding_w", 3}, {"output_padding", 1}, {"groups", 4}},
       {8, 32, 24, 48, 96}},
      {{{16, 32, 16, 32, 32}, {32, 64, 3, 3, 3}}, {{"stride", 2}, {"padding", 1}, {"dilation", 2}}, {16, 64, 33, 65, 65}}};
  cases.rejects = {
      {{{1, 4, 5, 5, 5}, {3, 6, 3, 3, 3}}, {}, "expected weight.shape[0] == 4 (x's channels)"},
      {{{1, 4, 5, 5, 5}, {4, 2, 3, 3, 3}}, {{"groups", 3}}, "expected C to be a multiple of groups"},
      {{{1, 4, 5, 5, 5}, {4, 2, 3, 3, 3}}, {{"stride_d", 2}, {"output_padding", 2}},
       "attribute output_padding is 2 with stride 2 and dilation 1; expected output_padding < max(stride, dilation)"},
      {{{1, 1, 2, 1, 3}, {1, 1, 1, 1, 1}}, {{"padding_h", 1}}, "output size 2x-1x3 for input 2x1x3, kernel 1x1x1"},
      {{{1, 4, 5, 5, 5}, {4, 3, 3, 3, 3}, {3}}, {{"groups", 2}}, "expected [6] (weight.shape[1]·groups)"},
      {{{1, 4, 5, 5}, {4, 2, 3, 3, 3}}, {}, "expected rank 5 [N, C, D, H, W]"},
      {{{1, 4, 5, 5, 5}, {4, 2, 3, 3}}, {}, "expected rank 5 [C, O/groups, KD, KH, KW]"},
      {{{1, 4, 5, 5, 5}, {4, 2, 3, 3, 3}}, {{"stride_w", 0}}, "attribute stride_w is 0; expected an integer >= 1"}};
  cases.costs = {
      // KernelBench L1 #61: 2·N·C·O·D·H·W·KD·KH·KW, every tap landing when padding is 0.
      {{{8, 48, 64, 64, 64}, {48, 48, 3, 3, 3}}, {}, 2.0 * 8 * 48 * 48 * 64 * 64 * 64 * 27},
      {{{2, 8, 3, 4, 5}, {8, 2, 3, 2, 2}}, {{"groups", 4}}, 2.0 * 2 * 8 * 2 * 3 * 4 * 5 * 3 * 2 * 2},
      // Stride 2, padding 1, output_padding 1, a 2x2x2 kernel over 2x2x2: targets 2i − 1 + k in
      // [0, 3) along each axis; i = 0's first tap falls at −1, so 3 of the 4 (position, tap)
      // pairs land per axis: 27.
      {{{1, 1, 2, 2, 2}, {1, 1, 2, 2, 2}}, {{"stride", 2}, {"padding", 1}, {"output_padding", 1}}, 2.0 * 27}};
  const std::vector<double> x = {1, 2, 3, 4};
  cases.values = {
      {"a 2x1x1 kernel: each position scatters into depths d and d + 1", {{1, 1, 2, 1, 2}, {1, 1, 2, 1, 1}},
       {x, {1, 10}}, {}, {1, 2, 13, 24, 30, 40}},
      {"stride 2, padding 1, output_padding 1, bias", {{1, 1, 2, 2, 2}, {1, 1, 2, 2, 2}, {1}},
       {{1, 2, 3, 4, 5, 6, 7, 8}, std::vector<double>(8, 1), {0.5}},
       {{"stride", 2}, {"padding", 1}, {"output_padding", 1}},
       {1.5, 2.5, 2.5, 3.5, 4.5, 4.5, 3.5, 4.5, 4.5, 5.5, 6.5, 6.5, 7.5, 8.5, 8.5, 7.5, 8.5, 8.5,
        5.5, 6.5, 6.5, 7.5, 8.5, 8.5, 7.5, 8.5, 8.5}},
      {"stride (1, 2, 1), padding (0, 0, 1), dilation (1, 1, 2), output_padding (0, 1, 0)",
       {{1, 1, 1, 2, 2}, {1, 1, 1, 1, 2}}, {x, {1, 10}},
       {{"stride_h", 2}, {"padding_w", 1}, {"dilation_w", 2}, {"output_padding_h", 1}}, {2, 10, 0, 0, 4, 30, 0, 0}},
      {"groups 2: each input channel feeds only its own group", {{1, 2, 1, 1, 2}, {2, 1, 1, 1, 1}}, {x, {1, 10}},
       {{"groups", 2}}, {1, 2, 30, 40}}};
  return cases;
}

}  // namespace kbv::ops::conv_transpose3d
