// daemon/ops/adaptive_avgpool2d/cases.cpp — adaptive_avgpool2d's test cases (ops/op_cases.hpp).
// Expected values are PyTorch 2.11's torch.nn.functional.adaptive_avg_pool2d on the CPU in float64.
#include "ops/op_cases.hpp"

namespace kbv::ops::adaptive_avgpool2d {

OpCases cases() {
  OpCases cases;
  cases.samples = {
      // output_size 1 (every level-3 CNN's global pool): the baseline's row-mean kernel, with
      // float4 rows (49 % 4 != 0: scalar; 64: vector).
      {"global_7x7", {{2, 16, 7, 7}}, {}},
      {"global_8x8", {{2, 8, 8, 8}}, {{"output_size", 1}}},
      // Other sizes: one thread per output, windows overlapping where out does not divide in.
      {"out3_of_10x7", {{2, 3, 10, 7}}, {{"output_size", 3}}},
      {"out5_of_3x4", {{1, 2, 3, 4}}, {{"output_size", 5}}}};
  cases.shapes = {{{{10, 2048, 7, 7}}, {}, {10, 2048, 1, 1}},
                  {{{1, 1, 5, 3}}, {{"output_size", 4}}, {1, 1, 4, 4}}};
  cases.rejects = {{{{1, 8, 8}}, {}, "expected rank 4 [N, C, H, W]"},
                   {{{1, 1, 8, 8}}, {{"output_size", 0}}, "expected an integer >= 1"}};
  cases.costs = {{{{10, 2048, 7, 7}}, {}, 10.0 * 2048 * 7 * 7},  // every element added once
                 {{{1, 1, 5, 3}}, {{"output_size", 4}}, 15.0}};
  const std::vector<double> x = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 16};  // 5×3
  cases.values = {
      {"rows [0, 3) and [2, 5), columns [0, 2) and [1, 3)", {{1, 1, 5, 3}}, {x}, {{"output_size", 2}},
       {4.5, 5.5, 10.5, 11.666666666666666}},
      {"output_size 1 is the mean", {{1, 1, 5, 3}}, {x}, {}, {8.066666666666666}},
      {"more outputs than columns: windows of one or two", {{1, 1, 5, 3}}, {x}, {{"output_size", 4}},
       {2.5, 3, 4, 4.5, 5.5, 6, 7, 7.5, 8.5, 9, 10, 10.5, 11.5, 12, 13.25, 14}}};
  return cases;
}

}  // namespace kbv::ops::adaptive_avgpool2d
