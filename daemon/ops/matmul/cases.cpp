// daemon/ops/matmul/cases.cpp — matmul's test cases (ops/op_cases.hpp). The hand-worked values
// were checked with PyTorch 2.11 on the CPU in float64 (torch.matmul, with .mT for the flags).
#include "ops/op_cases.hpp"

namespace kbv::ops::matmul {

OpCases cases() {
  OpCases cases;
  const Attrs ta{{"transpose_a", 1}}, tb{{"transpose_b", 1}};
  const Attrs both{{"transpose_a", 1}, {"transpose_b", 1}};
  cases.samples = {{"aligned", {{64, 48}, {48, 80}}, {}},
                   {"irregular", {{67, 45}, {45, 83}}, {}},
                   {"odd", {{17, 45}, {45, 23}}, {}},
                   {"one_row", {{1, 1}, {1, 5}}, {}},
                   {"transpose_a", {{45, 67}, {45, 83}}, ta},     // cuBLAS op(A) = T
                   {"transpose_b", {{67, 45}, {83, 45}}, tb},     // op(B) = T
                   {"transpose_both", {{45, 17}, {23, 45}}, both},
                   {"fold_3d", {{3, 17, 45}, {45, 23}}, {}},      // L1 #10: one GEMM, M = 3·17
                   {"fold_4d", {{2, 3, 9, 20}, {20, 11}}, {}},    // L1 #11
                   {"batched", {{3, 17, 45}, {3, 45, 23}}, {}},   // strided-batched
                   {"broadcast_a", {{17, 45}, {3, 45, 23}}, {}},  // a's stride 0
                   {"transposed_3d", {{3, 45, 17}, {45, 23}}, ta},  // no fold: b's stride 0
                   {"broadcast_both", {{2, 1, 9, 20}, {3, 20, 11}}, {}},  // two strided runs
                   {"batched_transpose_b", {{4, 9, 20}, {4, 11, 20}}, tb}};
  cases.shapes = {{{{8205, 2949}, {2949, 5921}}, {}, {8205, 5921}},
                  {{{16, 1024, 2048}, {2048, 768}}, {}, {16, 1024, 768}},
                  {{{8, 256, 512, 256}, {256, 768}}, {}, {8, 256, 512, 768}},
                  {{{8192, 2048}, {8192, 4096}}, ta, {2048, 4096}},
                  {{{2048, 8192}, {4096, 8192}}, tb, {2048, 4096}},
                  {{{8192, 2048}, {4096, 8192}}, both, {2048, 4096}},
                  {{{2, 1, 5, 7}, {3, 7, 4}}, {}, {2, 3, 5, 4}},
                  {{{5, 7}, {2, 3, 7, 4}}, {}, {2, 3, 5, 4}}};
  cases.rejects = {{{{3, 4}, {5, 6}}, {}, "expected b.shape[-2] == a.shape[-1]"},
                   {{{4, 3}, {5, 6}}, ta, "expected b.shape[-2] == a.shape[-2]"},
                   {{{3, 4}, {6, 5}}, tb, "expected b.shape[-1] == a.shape[-1]"},
                   {{{5}, {5, 6}}, {}, "a has shape [5]; expected rank >= 2"},
                   {{{3, 5}, {5}}, {}, "b has shape [5]; expected rank >= 2"},
                   {{{2, 3, 4}, {3, 4, 5}}, {}, "batch axis -1 is 2 vs 3"},
                   {{{3, 4}, {4, 5}}, {{"transpose_a", 2}}, "transpose_a"},
                   {{{3, 4}, {4, 5}}, {{"transpose_b", 0.5}}, "transpose_b"},
                   // Review: 2^32 broadcast products asked for 64 GiB of offsets at every catalog load.
                   {{{65536, 1, 1, 1}, {1, 65536, 1, 1}}, {}, "a broadcast batch of 4294967296 products"},
                   {{{2097152, 1048576, 1, 1}, {2097152, 1048576, 1, 1}}, {}, "the broadcast batch is beyond 2^40"}};
  cases.costs = {{{{4096, 4096}, {4096, 4096}}, {}, 2.0 * 4096 * 4096 * 4096},
                 {{{8205, 2949}, {2949, 5921}}, {}, 2.0 * 8205 * 2949 * 5921},
                 {{{16, 1024, 2048}, {2048, 768}}, {}, 2.0 * 16 * 1024 * 768 * 2048},
                 {{{8192, 2048}, {4096, 8192}}, both, 2.0 * 2048 * 4096 * 8192},
                 {{{2, 1, 5, 7}, {3, 7, 4}}, {}, 2.0 * 2 * 3 * 5 * 4 * 7}};
  cases.values = {
      {"2x2", {{2, 2}, {2, 2}}, {{1, 2, 3, 4}, {5, 6, 7, 8}}, {}, {19, 22, 43, 50}},
      {"1x3 · 3x2", {{1, 3}, {3, 2}}, {{1, 2, 3}, {1, 0, 0, 1, 1, 1}}, {}, {4, 5}},
      {"a stored [K, M] = [[1, 2, 3], [4, 5, 6]], transpose_a", {{2, 3}, {2, 2}},
       {{1, 2, 3, 4, 5, 6}, {1, 0, 2, 1}}, ta, {9, 4, 12, 5, 15, 6}},
      {"b stored [N, K] = [[1, 2], [3, 4], [5, 6]], transpose_b", {{2, 2}, {3, 2}},
       {{1, 2, 3, 4}, {1, 2, 3, 4, 5, 6}}, tb, {5, 11, 17, 11, 25, 39}},
      {"both transposed", {{2, 3}, {3, 2}}, {{1, 2, 3, 4, 5, 6}, {1, 2, 3, 4, 5, 6}}, both,
       {9, 19, 29, 12, 26, 40, 15, 33, 51}},
      {"a[2, 3, 2] · b[2, 2]: b reused by every batch", {{2, 3, 2}, {2, 2}},
       {{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, {1, -1, 2, 0.5}}, {},
       {5, 0, 11, -1, 17, -2, 23, -3, 29, -4, 35, -5}},
      {"a[2, 1, 1, 2] · b[3, 2, 1]: both broadcast to [2, 3]", {{2, 1, 1, 2}, {3, 2, 1}},
       {{1, 2, 3, 4}, {1, 0, 0, 1, 2, 1}}, {}, {1, 2, 4, 3, 4, 10}}};
  return cases;
}

}  // namespace kbv::ops::matmul
