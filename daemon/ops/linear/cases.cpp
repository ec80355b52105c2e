// daemon/ops/linear/cases.cpp — linear's test cases (ops/op_cases.hpp).
#include "ops/op_cases.hpp"

namespace kbv::ops::linear {

OpCases cases() {
  OpCases cases;
  cases.samples = {{"bias", {{32, 64}, {48, 64}, {48}}, {}},       // the cuBLASLt BIAS epilogue
                   {"no_bias", {{32, 64}, {48, 64}}, {}},          // cublasSgemm on Wᵀ
                   {"odd_bias", {{13, 64}, {21, 64}, {21}}, {}},
                   {"leading_dims", {{2, 3, 10}, {7, 10}}, {}}};
  cases.shapes = {{{{1024, 8192}, {4096, 8192}, {4096}}, {}, {1024, 4096}},
                  {{{2, 3, 8}, {5, 8}}, {}, {2, 3, 5}}};
  cases.rejects = {{{{4, 8}, {8, 5}}, {}, "expected weight.shape[1] == x.shape[-1] (8)"},
                   {{{4, 8}, {5, 8}, {8}}, {}, "bias has shape [8]; expected [5]"},
                   {{{4, 8}, {5, 8}, {5, 1}}, {}, "expected [5]"}};
  // The bias is absorbed by the accumulator: no extra term.
  cases.costs = {{{{1024, 8192}, {4096, 8192}, {4096}}, {}, 2.0 * 1024 * 8192 * 4096},
                 {{{2, 3, 8}, {5, 8}}, {}, 2.0 * 6 * 5 * 8}};
  // x·Wᵀ + b with W = [[1, 0], [0, 1], [1, 1]].
  cases.values = {{"with bias", {{1, 2}, {3, 2}, {3}}, {{1, 2}, {1, 0, 0, 1, 1, 1}, {10, 20, 30}},
                   {}, {11, 22, 33}},
                  {"without bias", {{1, 2}, {3, 2}}, {{1, 2}, {1, 0, 0, 1, 1, 1}}, {}, {1, 2, 3}}};
  return cases;
}

}  // namespace kbv::ops::linear
