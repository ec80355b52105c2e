// daemon/ops/conv1d/cases.cpp — conv1d's test cases (ops/op_cases.hpp). Hand-worked values are
// PyTorch's (torch.nn.functional.conv1d in float64 on the CPU, torch 2.11).
#include "ops/op_cases.hpp"

namespace kbv::ops::conv1d {

OpCases cases() {
  OpCases cases;
  cases.samples = {
      {"plain", {{2, 4, 40}, {8, 4, 3}}, {}},
      {"bias", {{2, 4, 33}, {6, 4, 5}, {6}}, {}},
      {"strided_padded", {{2, 4, 31}, {8, 4, 3}}, {{"stride", 2}, {"padding", 1}}},
      {"dilated_grouped", {{2, 4, 30}, {8, 2, 3}}, {{"dilation", 2}, {"groups", 2}}},
      // KernelBench L1 #76's form: stride 3, dilation 4.
      {"strided_dilated", {{3, 6, 64}, {5, 6, 3}, {5}}, {{"stride", 3}, {"dilation", 4}}},
      {"everything", {{2, 6, 29}, {4, 3, 4}, {4}}, {{"stride", 3}, {"padding", 2}, {"dilation", 2}, {"groups", 2}}}};
  cases.shapes = {
      // KernelBench L1 #67 and #76.
      {{{32, 64, 131072}, {128, 64, 3}}, {}, {32, 128, 131070}},
      // floor((524280 − 4·2 − 1)/3) + 1 = 174758
      {{{64, 64, 524280}, {128, 64, 3}}, {{"stride", 3}, {"dilation", 4}}, {64, 128, 174758}},
      // floor((7 + 2·1 − 2·(3−1) − 1)/2) + 1 = 3
      {{{1, 4, 7}, {6, 2, 3}, {6}}, {{"stride", 2}, {"padding", 1}, {"dilation", 2}, {"groups", 2}}, {1, 6, 3}}};
  cases.rejects = {
      {{{1, 4, 8}, {6, 3, 3}}, {}, "expected weight.shape[1] == 4"},
      {{{1, 4, 8}, {6, 2, 3}}, {{"groups", 3}}, "expected C to be a multiple of groups"},
      {{{1, 4, 8}, {6, 1, 3}}, {{"groups", 4}}, "expected O to be a multiple of groups"},
      {{{1, 4, 2}, {6, 4, 3}}, {}, "does not fit input 2"},
      {{{1, 4, 8}, {6, 4, 3}, {4}}, {}, "expected [6]"},
      {{{1, 4, 8, 8}, {6, 4, 3}}, {}, "expected rank 3 [N, C, L]"},
      {{{1, 4, 8}, {6, 4, 3, 3}}, {}, "expected rank 3 [O, C/groups, K]"},
      {{{1, 4, 8}, {6, 4, 3}}, {{"stride", 0}}, "expected an integer >= 1"},
      {{{1, 4, 8}, {6, 4, 3}}, {{"dilation", 0}}, "expected an integer >= 1"},
      {{{1, 4, 8}, {6, 4, 3}}, {{"padding", -1}}, "expected an integer >= 0"},
      // Review: a kernel of 2^40 taps took hours of convolution_flops at every catalog load.
      {{{1, 1, 1099511627776}, {1, 1, 1099511627776}}, {}, "taps along one axis is beyond 65536"}};
  cases.costs = {
      // KernelBench L1 #67: 2·N·O·OL·C·K.
      {{{32, 64, 131072}, {128, 64, 3}}, {}, 2.0 * 32 * 128 * 131070 * 64 * 3},
      // Groups divide the channels each output sees.
      {{{2, 8, 10}, {6, 4, 3}}, {{"groups", 2}}, 2.0 * 2 * 6 * 8 * 4 * 3},
      // Padding: a 3-tap kernel over 5 samples padded by 1 has 5 outputs, but the taps land on
      // 4 + 5 + 4 = 13 (output, sample) pairs, not 15.
      {{{1, 1, 5}, {1, 1, 3}}, {{"padding", 1}}, 2.0 * 13}};
  const std::vector<double> ramp = {1, 2, 3, 4, 5};
  cases.values = {
      {"difference kernel: x[i] - x[i + 2]", {{1, 1, 5}, {1, 1, 3}}, {ramp, {1, 0, -1}}, {}, {-2, -2, -2}},
      {"padding 1 with bias: the zero border drops a term at each end", {{1, 1, 5}, {1, 1, 3}, {1}},
       {ramp, {1, 0, -1}, {0.5}}, {{"padding", 1}}, {-1.5, -1.5, -1.5, -1.5, 4.5}},
      {"stride 2, dilation 2: x[0] + x[2], x[2] + x[4]", {{1, 1, 5}, {1, 1, 2}}, {ramp, {1, 1}},
       {{"stride", 2}, {"dilation", 2}}, {4, 8}},
      {"groups 2: each output channel sees only its own input channel", {{1, 2, 3}, {2, 1, 1}},
       {{1, 2, 3, 4, 5, 6}, {1, 10}}, {{"groups", 2}}, {1, 2, 3, 40, 50, 60}},
      {"groups 1 sums the input channels", {{1, 2, 3}, {1, 2, 1}}, {{1, 2, 3, 4, 5, 6}, {1, 10}}, {}, {41, 52, 63}}};
  return cases;
}

}  // namespace kbv::ops::conv1d
