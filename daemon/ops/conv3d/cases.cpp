// daemon/ops/conv3d/cases.cpp — conv3d's test cases (ops/op_cases.hpp). Hand-worked values are
// PyTorch's (torch.nn.functional.conv3d in float64 on the CPU, torch 2.11).
#include <numeric>

#include "ops/op_cases.hpp"

namespace kbv::ops::conv3d {

OpCases cases() {
  OpCases cases;
  cases.samples = {
      {"plain", {{2, 3, 6, 7, 8}, {4, 3, 3, 3, 3}}, {}},
      {"bias", {{1, 4, 5, 6, 7}, {6, 4, 2, 3, 2}, {6}}, {}},
      {"strided_padded", {{2, 3, 7, 8, 9}, {4, 3, 3, 3, 3}}, {{"stride", 2}, {"padding", 1}}},
      {"dilated_grouped", {{1, 4, 7, 8, 9}, {6, 2, 2, 3, 3}}, {{"dilation", 2}, {"groups", 2}}},
      // KernelBench L1 #59's form: a kernel of depth 1 along the last axis.
      {"flat_kernel", {{2, 3, 8, 9, 4}, {5, 3, 3, 3, 1}}, {}},
      {"per_axis", {{1, 4, 6, 9, 11}, {6, 2, 3, 2, 3}, {6}},
       {{"stride_d", 1}, {"stride_h", 2}, {"stride_w", 3}, {"padding_d", 1}, {"padding_w", 2}, {"dilation_h", 2},
        {"groups", 2}}}};
  cases.shapes = {
      // KernelBench L1 #54 and #59.
      {{{16, 3, 64, 64, 64}, {64, 3, 3, 3, 3}}, {}, {16, 64, 62, 62, 62}},
      {{{16, 3, 256, 256, 10}, {64, 3, 3, 3, 1}}, {}, {16, 64, 254, 254, 10}},
      // D: (6 + 2 − 2 − 1)/1 + 1 = 6; H: (9 − 2 − 1)/2 + 1 = 4; W: (11 + 4 − 2 − 1)/3 + 1 = 5
      {{{1, 4, 6, 9, 11}, {6, 2, 3, 2, 3}},
       {{"stride_h", 2}, {"stride_w", 3}, {"padding_d", 1}, {"padding_w", 2}, {"dilation_h", 2}, {"groups", 2}},
       {1, 6, 6, 4, 5}}};
  cases.rejects = {
      {{{1, 4, 5, 5, 5}, {6, 3, 3, 3, 3}}, {}, "expected weight.shape[1] == 4"},
      {{{1, 4, 5, 5, 5}, {6, 2, 3, 3, 3}}, {{"groups", 3}}, "expected C to be a multiple of groups"},
      {{{1, 4, 5, 5, 5}, {6, 1, 3, 3, 3}}, {{"groups", 4}}, "expected O to be a multiple of groups"},
      {{{1, 4, 5, 2, 5}, {6, 4, 3, 3, 3}}, {}, "does not fit input 5x2x5"},
      {{{1, 4, 5, 5, 5}, {6, 4, 3, 3, 3}, {4}}, {}, "expected [6]"},
      {{{4, 5, 5, 5}, {6, 4, 3, 3, 3}}, {}, "expected rank 5 [N, C, D, H, W]"},
      {{{1, 4, 5, 5, 5}, {6, 4, 3, 3}}, {}, "expected rank 5 [O, C/groups, KD, KH, KW]"},
      {{{1, 4, 5, 5, 5}, {6, 4, 3, 3, 3}}, {{"stride_d", 0}}, "attribute stride_d is 0; expected an integer >= 1"},
      {{{1, 4, 5, 5, 5}, {6, 4, 3, 3, 3}}, {{"dilation_w", 0.5}}, "attribute dilation_w is 0.5; expected an integer"}};
  cases.costs = {
      // KernelBench L1 #54: 2·N·O·OD·OH·OW·C·KD·KH·KW.
      {{{16, 3, 64, 64, 64}, {64, 3, 3, 3, 3}}, {}, 2.0 * 16 * 64 * 62 * 62 * 62 * 3 * 27},
      {{{2, 8, 6, 6, 6}, {6, 4, 3, 3, 3}}, {{"groups", 2}}, 2.0 * 2 * 6 * 4 * 4 * 4 * 4 * 27},
      // Padding 1 of a 2x2x2 kernel over 3x3x3, stride 2: along each axis the outputs 0 and 1
      // read rows −1, 0 and 1, 2, so 3 of the 4 (output, tap) pairs land: 27 per channel pair.
      {{{1, 1, 3, 3, 3}, {1, 1, 2, 2, 2}}, {{"stride", 2}, {"padding", 1}}, 2.0 * 27}};
  const auto ramp = [](size_t count) {  // 1, 2, …, count
    std::vector<double> values(count);
    std::iota(values.begin(), values.end(), 1.0);
    return values;
  };
  cases.values = {
      {"a 2x1x1 kernel of ones: x[0, h, w] + x[1, h, w]", {{1, 1, 2, 2, 3}, {1, 1, 2, 1, 1}}, {ramp(12), {1, 1}}, {},
       {8, 10, 12, 14, 16, 18}},
      {"padding (1, 0, 0) and stride (1, 1, 2) with bias: zero planes before and after",
       {{1, 1, 2, 2, 3}, {1, 1, 1, 1, 1}, {1}}, {ramp(12), {1}, {0.5}},
       {{"padding_d", 1}, {"stride_w", 2}},
       {0.5, 0.5, 0.5, 0.5, 1.5, 3.5, 4.5, 6.5, 7.5, 9.5, 10.5, 12.5, 0.5, 0.5, 0.5, 0.5}},
      {"stride 2, padding 1: windows start at -1 and 1 along every axis", {{1, 1, 3, 3, 3}, {1, 1, 2, 2, 2}},
       {ramp(27), std::vector<double>(8, 1)}, {{"stride", 2}, {"padding", 1}}, {1, 5, 11, 28, 29, 64, 76, 164}},
      {"dilation (1, 1, 4): x[d, h, 0] - x[d, h, 4]", {{1, 1, 3, 2, 5}, {1, 1, 1, 1, 2}}, {ramp(30), {1, -1}},
       {{"dilation_w", 4}}, {-4, -4, -4, -4, -4, -4}},
      {"groups 2: each output channel sees only its own input channel", {{1, 2, 1, 1, 2}, {2, 1, 1, 1, 1}},
       {{1, 2, 3, 4}, {2, 3}}, {{"groups", 2}}, {2, 4, 9, 12}}};
  return cases;
}

}  // namespace kbv::ops::conv3d
