// daemon/ops/adaptive_avgpool3d/cases.cpp — adaptive_avgpool3d's test cases (ops/op_cases.hpp).
// Expected values are PyTorch 2.11's torch.nn.functional.adaptive_avg_pool3d on the CPU in float64.
#include "ops/op_cases.hpp"

namespace kbv::ops::adaptive_avgpool3d {

OpCases cases() {
  OpCases cases;
  cases.samples = {
      // output_size 1 (KernelBench's global pools): the baseline's row-mean kernel, scalar
      // (3·5·7 elements per plane) and float4 (4·4·4).
      {"global_3x5x7", {{2, 6, 3, 5, 7}}, {}},
      {"global_4x4x4", {{2, 4, 4, 4, 4}}, {{"output_size", 1}}},
      {"out2_of_5x6x7", {{1, 3, 5, 6, 7}}, {{"output_size", 2}}},
      {"out4_of_3x3x5", {{1, 2, 3, 3, 5}}, {{"output_size", 4}}}};
  cases.shapes = {{{{128, 16, 16, 32, 32}}, {}, {128, 16, 1, 1, 1}},
                  {{{1, 1, 3, 3, 3}}, {{"output_size", 2}}, {1, 1, 2, 2, 2}}};
  cases.rejects = {{{{1, 8, 8, 8}}, {}, "expected rank 5 [N, C, D, H, W]"},
                   {{{1, 1, 8, 8, 8}}, {{"output_size", 1.5}}, "expected an integer"}};
  cases.costs = {{{{128, 16, 16, 32, 32}}, {}, 128.0 * 16 * 16 * 32 * 32},  // every element added once
                 {{{1, 1, 3, 3, 3}}, {{"output_size", 2}}, 27.0}};
  const std::vector<double> x = {-5, 2, -2, 5, 1, -3, 4, 0, -4, 3, -1, -5, 2, -2,
                                 5,  1, -3, 4, 0, -4, 3, -1, -5, 2, -2, 5, 1};  // 3×3×3
  cases.values = {
      {"windows [0, 2) and [1, 3) on every axis", {{1, 1, 3, 3, 3}}, {x}, {{"output_size", 2}},
       {0.625, -0.625, 1, -0.25, -1, -0.875, -0.625, 0.875}},
      {"output_size 1 is the mean", {{1, 1, 3, 3, 3}}, {x}, {}, {0.037037037037037035}}};
  return cases;
}

}  // namespace kbv::ops::adaptive_avgpool3d
