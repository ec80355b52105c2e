// daemon/ops/groupnorm/cases.cpp — groupnorm's test cases (ops/op_cases.hpp). Expected values
// are PyTorch 2.11's torch.nn.functional.group_norm on the CPU in float64.
#include "ops/op_cases.hpp"

namespace kbv::ops::groupnorm {

OpCases cases() {
  OpCases cases;
  cases.samples = {
      // Groups of fewer than 1024 elements take one warp per piece, longer ones 256 threads;
      // float4 where a group's length is a multiple of 4; long groups split into pieces.
      {"small_groups_affine", {{4, 8, 6, 6}, {8}, {8}}, {{"groups", 2}}},
      {"large_groups_affine", {{2, 64, 32, 32}, {64}, {64}}, {{"groups", 8}}},
      {"rank2_gemm", {{8, 32}, {32}, {32}}, {{"groups", 4}}},  // Linear → GroupNorm (L2 #37)
      {"odd_groups", {{3, 6, 5, 7}}, {{"groups", 3}, {"eps", 1e-3}}},
      {"one_group_pieces", {{1, 4, 128, 128}}, {}}};
  const Shape l1_35 = {112, 64, 512, 512};
  cases.shapes = {{{l1_35, {64}, {64}}, {{"groups", 8}}, l1_35}, {{{1, 6}}, {{"groups", 6}}, {1, 6}}};
  cases.rejects = {{{{2, 8, 4}}, {{"groups", 3}}, "attribute groups is 3 but x has 8 channels; expected groups to divide C"},
                   {{{2, 8, 4}}, {{"groups", 0}}, "expected an integer >= 1"},
                   {{{8}}, {}, "expected rank >= 2"},
                   {{{2, 8, 4}, {8}, {4}}, {}, "bias has shape [4]"},
                   {{{2, 8, 4}, {8}}, {}, "expected weight and bias both or neither"}};
  cases.costs = {{{l1_35, {64}, {64}}, {{"groups", 8}}, 4.0 * 112 * 64 * 512 * 512}};
  const std::vector<double> x = {1, 2, 4, 8, 3, 5, 7, 11};  // [1, 4, 2]
  cases.values = {
      {"two groups of two channels, with weight and bias", {{1, 4, 2}, {4}, {4}}, {x, {1, 2, -1, 0.5}, {0, 1, 2, 3}},
       {{"groups", 2}},
       {-1.0257545754961932, -0.6527529116793956, 1.1865008319083987, 4.170514142442778, 3.183215280497099,
        2.5070922630701853, 3.084515377178364, 3.760638394605278}},
      {"one group: every channel together", {{1, 4, 2}}, {x}, {},
       {-1.3137085910628659, -0.9952337811082318, -0.35828416119896345, 0.9156150786195733, -0.6767589711535976,
        -0.03980935124432927, 0.5971402686649391, 1.8710395084834759}},
      {"one group per channel", {{1, 4, 2}}, {x}, {{"groups", 4}},
       {-0.9999800005999799, 0.9999800005999799, -0.9999987500023437, 0.9999987500023437, -0.9999950000374997,
        0.9999950000374997, -0.9999987500023437, 0.9999987500023437}}};
  return cases;
}

}  // namespace kbv::ops::groupnorm
