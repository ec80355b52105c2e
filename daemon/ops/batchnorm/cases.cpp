// daemon/ops/batchnorm/cases.cpp — batchnorm's test cases (ops/op_cases.hpp). Expected values
// are PyTorch 2.11's torch.nn.functional.batch_norm (training=True) on the CPU in float64.
#include "ops/op_cases.hpp"

namespace kbv::ops::batchnorm {

OpCases cases() {
  OpCases cases;
  cases.samples = {
      // Weight and bias with rank >= 3: the baseline's cuDNN call (4-d, 3-d padded to 4-d, 5-d).
      {"affine_4d", {{4, 8, 6, 6}, {8}, {8}}, {}},
      {"affine_3d", {{4, 8, 50}, {8}, {8}}, {{"eps", 1e-3}}},
      {"affine_5d", {{2, 4, 3, 4, 5}, {4}, {4}}, {}},
      // PyTorch's native kernels, kbv's: rank 2 (Gemm → BatchNorm1d) read as columns,
      {"affine_2d_columns", {{96, 24}, {24}, {24}}, {}},
      {"affine_2d_tall", {{300, 5}, {5}, {5}}, {}},
      // no affine part: short spatial extents as columns, longer ones as segments (float4 or
      // not), long ones split into pieces.
      {"columns_spatial21", {{3, 5, 7, 3}}, {}},
      {"segments_vector", {{4, 8, 8, 8}}, {}},
      {"segments_scalar", {{2, 3, 7, 7}}, {}},
      {"segments_pieces", {{2, 2, 128, 256}}, {}}};
  const Shape l1_33 = {64, 64, 512, 512};
  cases.shapes = {{{l1_33, {64}, {64}}, {}, l1_33}, {{{8, 3}}, {}, {8, 3}}};
  cases.rejects = {{{{1, 4}}, {}, "expected more than one value per channel"},
                   {{{4}}, {}, "expected rank >= 2"},
                   {{{4, 4, 3}, {3}, {4}}, {}, "weight has shape [3]; expected one value per channel of x, [4]"},
                   {{{4, 4, 3}, {4}}, {}, "expected weight and bias both or neither"},
                   {{{4, 4}}, {{"eps", -1}}, "eps >= 0"}};
  cases.costs = {{{l1_33, {64}, {64}}, {}, 4.0 * 64 * 64 * 512 * 512}};
  const std::vector<double> x = {1, 2, 4, 8, 3, 5, 7, 11};  // [2, 2, 2]
  cases.values = {
      {"per channel over the batch, with weight and bias", {{2, 2, 2}, {2}, {2}}, {x, {2, -1}, {0.5, 3}}, {},
       {-1.8664265042711607, -0.5141827875447831, 4.399998880001344, 2.800000159999808, 0.8380609291815946,
        3.54254836263435, 3.199999840000192, 1.600001119998656}},
      {"no affine part, eps 0.1", {{2, 2, 2}}, {x}, {{"eps", 0.1}},
       {-1.157064308587751, -0.4958847036804648, -1.388932632731954, 0.19841894753313616, 0.16529490122682144,
        1.487654111041394, -0.19841894753313638, 1.3889326327319538}},
      {"rank 2: per column", {{3, 2}, {2}, {2}}, {{1, 10, 2, 20, 4, 40}, {2, -1}, {0.5, 3}}, {},
       {-1.6380830629005956, 4.06904493328754, -0.03452076572514917, 3.2672612333218853, 3.1726038286257436,
        1.663693833390576}}};
  return cases;
}

}  // namespace kbv::ops::batchnorm
