// daemon/ops/conv_transpose1d/cases.cpp — conv_transpose1d's test cases (ops/op_cases.hpp). Hand-
// worked values are PyTorch's (torch.nn.functional.conv_transpose1d in float64 on the CPU, torch
// 2.11).
#include "ops/op_cases.hpp"

namespace kbv::ops::conv_transpose1d {

OpCases cases() {
  OpCases cases;
  // Strides 1 and above (the reference's im2col divides only when the stride is not 1), padding
  // that drops taps at both ends, output_padding, dilation, groups, bias.
  cases.samples = {
      {"plain", {{2, 4, 30}, {4, 6, 3}}, {}},
      {"bias", {{2, 4, 25}, {4, 5, 4}, {5}}, {}},
      {"strided_padded", {{2, 4, 19}, {4, 6, 3}}, {{"stride", 2}, {"padding", 1}, {"output_padding", 1}}},
      // KernelBench L1 #74's form: dilation 3.
      {"dilated", {{2, 3, 24}, {3, 4, 5}}, {{"dilation", 3}}},
      {"grouped", {{2, 6, 17}, {6, 2, 3}, {6}}, {{"groups", 3}}},
      // KernelBench L1 #79's form: stride 2, padding 1, dilation 2.
      {"everything", {{2, 4, 21}, {4, 3, 3}, {6}},
       {{"stride", 3}, {"padding", 2}, {"output_padding", 2}, {"dilation", 2}, {"groups", 2}}}};
  cases.shapes = {
      // KernelBench L1 #64, #74, #79: (L − 1)·s − 2p + d(k − 1) + output_padding + 1.
      {{{64, 128, 65536}, {128, 128, 3}}, {}, {64, 128, 65538}},
      {{{32, 32, 131072}, {32, 64, 5}}, {{"dilation", 3}}, {32, 64, 131084}},
      {{{16, 32, 131072}, {32, 64, 3}}, {{"stride", 2}, {"padding", 1}, {"dilation", 2}}, {16, 64, 262145}},
      // groups multiply weight.shape[1]: 4 input channels, groups 2, 3 per group → 6 outputs.
      {{{1, 4, 5}, {4, 3, 2}, {6}}, {{"groups", 2}, {"stride", 2}, {"output_padding", 1}}, {1, 6, 11}},
      // output_padding may reach the stride when it stays below the dilation (PyTorch's rule).
      {{{1, 1, 3}, {1, 1, 2}}, {{"dilation", 2}, {"output_padding", 1}}, {1, 1, 6}}};
  cases.rejects = {
      {{{1, 4, 8}, {3, 6, 3}}, {}, "expected weight.shape[0] == 4 (x's channels)"},
      {{{1, 4, 8}, {4, 2, 3}}, {{"groups", 3}}, "expected C to be a multiple of groups"},
      {{{1, 4, 8}, {4, 2, 3}}, {{"stride", 2}, {"output_padding", 2}},
       "attribute output_padding is 2 with stride 2 and dilation 1; expected output_padding < max(stride, dilation)"},
      {{{1, 1, 1}, {1, 1, 1}}, {{"padding", 1}}, "output size -1 for input 1, kernel 1"},
      {{{1, 4, 8}, {4, 3, 3}, {3}}, {{"groups", 2}}, "expected [6] (weight.shape[1]·groups)"},
      {{{1, 4, 8, 8}, {4, 2, 3}}, {}, "expected rank 3 [N, C, L]"},
      {{{1, 4, 8}, {4, 2, 3, 3}}, {}, "expected rank 3 [C, O/groups, K]"},
      {{{1, 4, 8}, {4, 2, 3}}, {{"stride", 0}}, "expected an integer >= 1"},
      {{{1, 4, 8}, {4, 2, 3}}, {{"output_padding", -1}}, "expected an integer >= 0"}};
  cases.costs = {
      // KernelBench L1 #64: 2·N·C·O·L·K, every tap landing when padding is 0.
      {{{64, 128, 65536}, {128, 128, 3}}, {}, 2.0 * 64 * 128 * 128 * 65536 * 3},
      {{{2, 8, 10}, {8, 3, 3}}, {{"groups", 2}}, 2.0 * 2 * 8 * 3 * 10 * 3},
      // Padding 1 over 3 samples, stride 2, kernel 3: targets 2i − 1 + k in [0, 6) with output
      // padding 1; i = 0's first tap falls at −1, so 8 of the 9 (sample, tap) pairs land.
      {{{1, 1, 3}, {1, 1, 3}}, {{"stride", 2}, {"padding", 1}, {"output_padding", 1}}, 2.0 * 8}};
  const std::vector<double> x = {1, 2, 3};
  cases.values = {
      {"each sample scatters w·x[i] into y[i + k]", {{1, 1, 3}, {1, 1, 2}}, {x, {1, 10}}, {}, {1, 12, 23, 30}},
      {"stride 3 leaves gaps that only the bias fills", {{1, 1, 3}, {1, 1, 2}, {1}}, {x, {1, 10}, {0.5}},
       {{"stride", 3}}, {1.5, 10.5, 0.5, 2.5, 20.5, 0.5, 3.5, 30.5}},
      {"stride 2, padding 1, output_padding 1: the term at -1 is dropped", {{1, 1, 3}, {1, 1, 3}}, {x, {1, 10, 100}},
       {{"stride", 2}, {"padding", 1}, {"output_padding", 1}}, {10, 102, 20, 203, 30, 300}},
      {"output_padding 1 below dilation 2: a last output no term reaches", {{1, 1, 3}, {1, 1, 2}}, {x, {1, 10}},
       {{"dilation", 2}, {"output_padding", 1}}, {1, 2, 13, 20, 30, 0}},
      {"groups 2: each input channel feeds only its own group", {{1, 2, 2}, {2, 1, 1}}, {{1, 2, 3, 4}, {1, 10}},
       {{"groups", 2}}, {1, 2, 30, 40}},
      {"groups 1: every input channel feeds every output channel", {{1, 2, 2}, {2, 2, 1}},
       {{1, 2, 3, 4}, {1, 2, 10, 20}}, {}, {31, 42, 62, 84}}};
  return cases;
}

}  // namespace kbv::ops::conv_transpose1d
