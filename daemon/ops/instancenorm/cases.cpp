// daemon/ops/instancenorm/cases.cpp — instancenorm's test cases (ops/op_cases.hpp). Expected
// values are PyTorch 2.11's torch.nn.functional.instance_norm on the CPU in float64.
#include "ops/op_cases.hpp"

namespace kbv::ops::instancenorm {

OpCases cases() {
  OpCases cases;
  cases.samples = {
      // No weight or bias (every KernelBench model): kbv's kernels, float4 or scalar, one warp
      // or 256 threads per piece, long planes in pieces.
      {"plain_vector", {{4, 8, 6, 6}}, {}},
      {"plain_scalar", {{2, 3, 7, 9}}, {{"eps", 1e-3}}},
      {"plain_5d", {{1, 2, 4, 4, 4}}, {}},
      {"plain_pieces", {{1, 2, 256, 128}}, {}},
      // With weight and bias: cuDNN's batch norm on [1, N·C, *] after weight.repeat(N).
      {"affine_4d", {{2, 4, 6, 6}, {4}, {4}}, {}},
      {"affine_3d", {{2, 3, 5}, {3}, {3}}, {}}};
  const Shape l1_34 = {112, 64, 512, 512};
  cases.shapes = {{{l1_34}, {}, l1_34}, {{{2, 3, 5}, {3}, {3}}, {}, {2, 3, 5}}};
  cases.rejects = {{{{2, 3}}, {}, "expected rank >= 3"},
                   {{{2, 3, 1}}, {}, "expected more than one spatial element"},
                   {{{2, 3, 4}, {2}, {3}}, {}, "weight has shape [2]"}};
  cases.costs = {{{l1_34}, {}, 4.0 * 112 * 64 * 512 * 512}};
  const std::vector<double> x = {1, 2, 4, 8, 3, 5, 7, 11, 0, 1, 0, 1};  // [2, 2, 3]
  cases.values = {
      {"per sample and channel", {{2, 2, 3}}, {x}, {},
       {-1.0690415314502977, -0.2672603828625746, 1.3363019143128716, 1.2977698322143145, -1.1355486031875248,
        -0.16222122902678915, 0.2199706193133382, 1.0998530965666908, -1.3198237158800288, 0.7070908718209099,
        -1.4141817436418196, 0.7070908718209099}},
      {"with weight and bias", {{2, 2, 3}, {2}, {2}}, {x, {2, -1}, {0.5, 3}}, {},
       {-1.6380830629005954, -0.03452076572514917, 3.172603828625743, 1.702230167785686, 4.135548603187526,
        3.1622212290267897, 0.9399412386266763, 2.6997061931333817, -2.1396474317600576, 2.29290912817909,
        4.414181743641819, 2.29290912817909}}};
  return cases;
}

}  // namespace kbv::ops::instancenorm
