// daemon/ops/sdpa/cases.cpp — sdpa's test cases (ops/op_cases.hpp). The hand-worked values were
// checked with PyTorch 2.11 on the CPU in float64
// (torch.nn.functional.scaled_dot_product_attention).
#include "ops/op_cases.hpp"

namespace kbv::ops::sdpa {

OpCases cases() {
  OpCases cases;
  const Attrs causal{{"is_causal", 1}};
  cases.samples = {{"heads", {{2, 3, 16, 32}, {2, 3, 24, 32}, {2, 3, 24, 16}}, {}},  // float4 softmax rows
                   {"odd", {{3, 7, 9}, {3, 11, 9}, {3, 11, 5}}, {}},               // scalar rows
                   {"causal", {{2, 16, 8}, {2, 16, 8}, {2, 16, 8}}, causal},
                   {"causal_tall", {{2, 20, 8}, {2, 12, 8}, {2, 12, 8}}, causal},  // L > S
                   {"causal_wide", {{2, 5, 8}, {2, 12, 8}, {2, 12, 4}}, causal},   // L < S
                   {"scale", {{4, 10, 12}, {4, 10, 12}, {4, 10, 12}}, {{"scale", 0.3}}},
                   {"matrices", {{9, 8}, {13, 8}, {13, 6}}, {}}};                  // no batch axes
  cases.shapes = {{{{32, 32, 512, 1024}, {32, 32, 512, 1024}, {32, 32, 512, 1024}}, {}, {32, 32, 512, 1024}},
                  {{{2, 5, 8}, {2, 7, 8}, {2, 7, 3}}, causal, {2, 5, 3}},
                  {{{5, 8}, {7, 8}, {7, 3}}, {}, {5, 3}}};
  cases.rejects = {{{{2, 5, 8}, {2, 7, 6}, {2, 7, 3}}, {}, "expected k.shape[-1] == q.shape[-1]"},
                   {{{2, 5, 8}, {2, 7, 8}, {2, 6, 3}}, {}, "expected v.shape[-2] == k.shape[-2]"},
                   {{{2, 5, 8}, {3, 7, 8}, {3, 7, 3}}, {}, "expected the same leading (batch) axes"},
                   {{{2, 5, 8}, {7, 8}, {7, 3}}, {}, "expected the same leading (batch) axes"},
                   {{{8}, {7, 8}, {7, 3}}, {}, "q has shape [8]; expected rank >= 2"},
                   {{{5, 8}, {7, 8}, {7, 3}}, {{"is_causal", 2}}, "attribute is_causal is 2"},
                   // Review: L·S of 2^31 · 2^32 wrapped to INT64_MIN, and the flops count went negative.
                   {{{2147483648, 1}, {4294967296, 1}, {4294967296, 1}}, {}, "L*S (the score matrix) is beyond 2^40"}};
  // 2·ΠB·L·S·(E + Ev); causal with L = 4, S = 3: rows see 1, 2, 3, 3 keys, 9 pairs.
  cases.costs = {{{{32, 32, 512, 1024}, {32, 32, 512, 1024}, {32, 32, 512, 1024}}, {},
                  2.0 * 32 * 32 * 512 * 512 * (1024 + 1024)},
                 {{{2, 4, 8}, {2, 3, 8}, {2, 3, 5}}, causal, 2.0 * 2 * 9 * (8 + 5)},
                 {{{2, 3, 8}, {2, 4, 8}, {2, 4, 5}}, causal, 2.0 * 2 * 6 * (8 + 5)}};
  // q = [[1, 0], [0, 2]], k = [[1, 1], [0, 1], [2, 0]], v = [[1, 2], [3, 4], [5, 6]].
  const std::vector<Shape> shapes{{1, 2, 2}, {1, 3, 2}, {1, 3, 2}};
  const std::vector<std::vector<double>> data{{1, 0, 0, 2}, {1, 1, 0, 1, 2, 0}, {1, 2, 3, 4, 5, 6}};
  cases.values = {
      {"scale 1/√2", shapes, data, {}, {3.5839598709482035, 4.5839598709482035, 2.3251503553543804, 3.32515035535438}},
      {"causal: query 0 sees key 0, query 1 keys 0 and 1 (equal scores)", shapes, data, causal,
       {1, 2, 2, 3}},
      {"scale 0.5", shapes, data, {{"scale", 0.5}},
       {3.398569010674312, 4.398569010674311, 2.4660872104908904, 3.4660872104908904}},
      {"causal with more queries than keys: query 2 sees both keys", {{1, 3, 2}, {1, 2, 2}, {1, 2, 2}},
       {{1, 0, 0, 2, 1, 1}, {1, 1, 0, 1}, {1, 2, 3, 4}}, causal,
       {1, 2, 2, 3, 1.660476901346686, 2.6604769013466862}},
      {"matrices without batch axes", {{2, 2}, {3, 2}, {3, 2}}, data, {},
       {3.5839598709482035, 4.5839598709482035, 2.3251503553543804, 3.32515035535438}}};
  return cases;
}

}  // namespace kbv::ops::sdpa
