// daemon/ops/layernorm/cases.cpp — layernorm's test cases (ops/op_cases.hpp).
#include "ops/op_cases.hpp"

#include <cmath>

namespace kbv::ops::layernorm {

OpCases cases() {
  OpCases cases;
  cases.samples = {
      // The CUDA baseline's one fused kernel per row, with weight and bias.
      {"fused", {{4, 8, 16, 16}, {8, 16, 16}, {8, 16, 16}}, {{"normalized_rank", 3}}},
      // Few long rows: the baseline splits each row into chunks (moments + apply kernels).
      {"split", {{2, 64, 32, 32}, {64, 32, 32}, {64, 32, 32}}, {{"normalized_rank", 3}}},
      {"no_affine_odd", {{300, 45}}, {}},  // no weight or bias; rows not a multiple of 4
      // Rows of several chunks of the fp64 reference (4096 elements each) and a partial last one.
      {"ragged_chunks", {{3, 10007}, {10007}, {10007}}, {}},
      {"plain", {{6, 50}}, {}},
      {"weight_only", {{3, 4, 10}, {4, 10}}, {{"normalized_rank", 2}, {"eps", 1e-3}}},
      {"affine_small", {{3, 4, 6, 6}, {4, 6, 6}, {4, 6, 6}}, {{"normalized_rank", 3}}}};
  cases.shapes = {{{{16, 64, 256, 256}, {64, 256, 256}, {64, 256, 256}}, {{"normalized_rank", 3}},
                   {16, 64, 256, 256}},
                  {{{4, 8}}, {}, {4, 8}},
                  {{{4, 8}, {8}}, {}, {4, 8}}};
  cases.rejects = {
      {{{4, 8, 16}, {8, 16}, {8, 16}}, {},
       "weight has shape [8, 16]; expected the normalised trailing dims of x, [16]"},
      {{{4, 8, 16}, {8, 16}, {16}}, {{"normalized_rank", 2}}, "bias has shape [16]"},
      {{{4, 8}}, {{"normalized_rank", 3}}, "expected normalized_rank <= 2"},
      {{{4, 8}}, {{"normalized_rank", 0}}, "expected an integer >= 1"},
      {{{4, 8}}, {{"eps", -1}}, "eps >= 0"}};
  cases.costs = {{{{16, 64, 256, 256}, {64, 256, 256}, {64, 256, 256}}, {{"normalized_rank", 3}},
                  4.0 * 16 * 64 * 256 * 256}};
  // Row [1, 2, 3, 4]: mean 2.5, biased variance 1.25.
  const double rstd = 1 / std::sqrt(1.25 + 1e-5);
  const std::vector<double> normalised = {-1.5 * rstd, -0.5 * rstd, 0.5 * rstd, 1.5 * rstd};
  cases.values = {
      {"biased variance", {{1, 4}}, {{1, 2, 3, 4}}, {}, normalised},
      {"over the last two dims with weight and bias", {{1, 2, 2}, {2, 2}, {2, 2}},
       {{1, 2, 3, 4}, {1, 2, 1, 2}, {0, 0, 1, 1}}, {{"normalized_rank", 2}},
       {normalised[0], 2 * normalised[1], normalised[2] + 1, 2 * normalised[3] + 1}},
      {"eps keeps a constant row at 0, not NaN", {{1, 3}}, {{7, 7, 7}}, {}, {0, 0, 0}}};
  return cases;
}

}  // namespace kbv::ops::layernorm
