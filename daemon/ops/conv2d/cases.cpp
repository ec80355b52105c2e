// daemon/ops/conv2d/cases.cpp — conv2d's test cases (ops/op_cases.hpp). The per-axis hand-worked
// values are PyTorch's (torch.nn.functional.conv2d in float64 on the CPU, torch 2.11).
#include "ops/op_cases.hpp"

namespace kbv::ops::conv2d {

OpCases cases() {
  OpCases cases;
  cases.samples = {
      {"plain", {{2, 4, 16, 16}, {8, 4, 3, 3}}, {}},
      {"bias", {{2, 4, 12, 12}, {8, 4, 3, 3}, {8}}, {}},
      {"strided_padded", {{2, 4, 15, 15}, {8, 4, 3, 3}}, {{"stride", 2}, {"padding", 1}}},
      {"dilated_grouped", {{2, 4, 16, 16}, {8, 2, 3, 3}}, {{"dilation", 2}, {"groups", 2}}},
      {"everything", {{2, 4, 13, 11}, {6, 2, 3, 3}, {6}},
       {{"stride", 2}, {"padding", 1}, {"dilation", 2}, {"groups", 2}}},
      {"strided_grouped_odd", {{1, 6, 11, 9}, {4, 3, 3, 2}},
       {{"stride", 2}, {"padding", 1}, {"dilation", 2}, {"groups", 2}}},
      {"wide_padding", {{1, 3, 9, 10}, {5, 3, 1, 2}}, {{"stride", 3}, {"padding", 2}}},
      // KernelBench L1 #80's form: dilation (2, 3), padding (2, 4), an asymmetric kernel.
      {"per_axis_dilated_padded", {{1, 4, 14, 20}, {6, 4, 5, 9}, {6}},
       {{"padding_h", 2}, {"padding_w", 4}, {"dilation_h", 2}, {"dilation_w", 3}}},
      {"per_axis_strided_grouped", {{2, 4, 11, 13}, {6, 2, 3, 2}},
       {{"stride", 2}, {"stride_w", 3}, {"padding_h", 1}, {"dilation_w", 2}, {"groups", 2}}}};
  cases.shapes = {
      {{{16, 16, 1024, 1024}, {128, 16, 3, 3}}, {}, {16, 128, 1022, 1022}},
      {{{2, 4, 12, 12}, {8, 4, 3, 3}, {8}}, {}, {2, 8, 10, 10}},
      // floor((7 + 2·1 − 2·(3−1) − 1) / 2) + 1 = 3
      {{{1, 4, 7, 7}, {6, 2, 3, 3}}, {{"stride", 2}, {"padding", 1}, {"dilation", 2}, {"groups", 2}},
       {1, 6, 3, 3}},
      // KernelBench L1 #80: H 512 + 2·2 − 2·4 − 1 + 1 = 508, W 512 + 2·4 − 3·8 − 1 + 1 = 496.
      {{{8, 32, 512, 512}, {64, 32, 5, 9}}, {{"padding", 2}, {"padding_w", 4}, {"dilation", 2}, {"dilation_w", 3}},
       {8, 64, 508, 496}},
      // A per-axis value equal to -1 takes the scalar's.
      {{{1, 4, 9, 9}, {6, 4, 3, 3}}, {{"stride", 2}, {"stride_h", -1}, {"stride_w", 1}}, {1, 6, 4, 7}}};
  cases.rejects = {
      {{{1, 4, 8, 8}, {6, 3, 3, 3}}, {}, "expected weight.shape[1] == 4"},
      {{{1, 4, 8, 8}, {6, 2, 3, 3}}, {{"groups", 3}}, "expected C to be a multiple of groups"},
      {{{1, 4, 8, 8}, {6, 1, 3, 3}}, {{"groups", 4}}, "expected O to be a multiple of groups"},
      {{{1, 4, 2, 2}, {6, 4, 3, 3}}, {}, "does not fit input 2x2"},
      {{{1, 4, 8, 8}, {6, 4, 3, 3}, {4}}, {}, "expected [6]"},
      {{{4, 8, 8}, {6, 4, 3, 3}}, {}, "expected rank 4 [N, C, H, W]"},
      {{{1, 4, 8, 8}, {6, 4, 3, 3}}, {{"stride", 0}}, "expected an integer >= 1"},
      {{{1, 4, 8, 8}, {6, 4, 3, 3}}, {{"padding", 1.5}}, "expected an integer"},
      {{{1, 4, 8, 8}, {6, 4, 3, 3}}, {{"stride_h", 0}}, "attribute stride_h is 0; expected an integer >= 1, or -1 for stride's value"},
      {{{1, 4, 8, 8}, {6, 4, 3, 3}}, {{"padding_w", -2}}, "attribute padding_w is -2; expected an integer >= -1"},
      {{{1, 4, 8, 3}, {6, 4, 3, 3}}, {{"dilation_w", 2}}, "does not fit input 8x3"}};
  cases.costs = {
      // KernelBench L1 #63: 2·N·O·OH·OW·C·KH·KW.
      {{{16, 16, 1024, 1024}, {128, 16, 3, 3}}, {}, 2.0 * 16 * 128 * 1022 * 1022 * 16 * 3 * 3},
      // Groups divide the channels each output sees.
      {{{2, 8, 10, 10}, {6, 4, 3, 3}}, {{"groups", 2}}, 2.0 * 2 * 6 * 8 * 8 * 4 * 3 * 3},
      // Padding: a 2x2 kernel over a 3x3 image padded by 1 has 4x4 outputs, but each of the 9
      // pixels meets each of the 4 taps once: 36 multiply-adds, not 16·4 = 64.
      {{{1, 1, 3, 3}, {1, 1, 2, 2}}, {{"padding", 1}}, 2.0 * 36},
      // Per-axis padding (1, 0) of a 1x3 kernel over 3x4: every tap lands on 3 of the 5 output
      // rows and on all 2 columns.
      {{{1, 1, 3, 4}, {1, 1, 1, 3}}, {{"padding_h", 1}}, 2.0 * 3 * 3 * 2}};
  const std::vector<double> image = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  const std::vector<double> diagonal = {1, 0, 0, 1};  // each output is x[r, s] + x[r+1, s+1]
  const std::vector<double> ramp12 = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  cases.values = {
      {"2x2 diagonal kernel", {{1, 1, 3, 3}, {1, 1, 2, 2}}, {image, diagonal}, {}, {6, 8, 12, 14}},
      {"with bias", {{1, 1, 3, 3}, {1, 1, 2, 2}, {1}}, {image, diagonal, {0.5}}, {},
       {6.5, 8.5, 12.5, 14.5}},
      {"zero padding 1: a 4x4 output over the zero-bordered image", {{1, 1, 3, 3}, {1, 1, 2, 2}},
       {image, diagonal}, {{"padding", 1}}, {1, 2, 3, 0, 4, 6, 8, 3, 7, 12, 14, 6, 0, 7, 8, 9}},
      {"stride 2", {{1, 1, 3, 3}, {1, 1, 1, 1}}, {image, {1}}, {{"stride", 2}}, {1, 3, 7, 9}},
      {"dilation 2: x[0, 0] + x[2, 2]", {{1, 1, 3, 3}, {1, 1, 2, 2}}, {image, diagonal},
       {{"dilation", 2}}, {10}},
      {"stride 2 with padding 1: windows start at -1 and 1", {{1, 1, 3, 3}, {1, 1, 2, 2}},
       {image, {1, 1, 1, 1}}, {{"stride", 2}, {"padding", 1}}, {1, 2 + 3, 4 + 7, 5 + 6 + 8 + 9}},
      {"groups 2: each output channel sees only its own input channel", {{1, 2, 1, 2}, {2, 1, 1, 1}},
       {{1, 2, 5, 6}, {2, 3}}, {{"groups", 2}}, {2, 4, 15, 18}},
      {"groups 1 sums the input channels", {{1, 2, 1, 2}, {1, 2, 1, 1}}, {{1, 2, 5, 6}, {1, 10}},
       {}, {51, 62}},
      {"padding (1, 0): zero rows above and below, none at the sides", {{1, 1, 3, 4}, {1, 1, 1, 3}},
       {ramp12, {1, 0, -1}}, {{"padding_h", 1}}, {0, 0, -2, -2, -2, -2, -2, -2, 0, 0}},
      {"stride (1, 2), dilation (2, 1): x[r, c] + x[r + 2, c]", {{1, 1, 3, 4}, {1, 1, 2, 1}}, {ramp12, {1, 1}},
       {{"stride_w", 2}, {"dilation_h", 2}}, {10, 14}},
      {"stride (2, 3), padding (0, 1), dilation (1, 2)", {{1, 1, 4, 5}, {1, 1, 2, 2}},
       {{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20}, {1, 1, 1, 1}},
       {{"stride_h", 2}, {"stride_w", 3}, {"padding_w", 1}, {"dilation_w", 2}}, {9, 26, 29, 66}}};
  return cases;
}

}  // namespace kbv::ops::conv2d
