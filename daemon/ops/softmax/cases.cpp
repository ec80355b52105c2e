// daemon/ops/softmax/cases.cpp — softmax's test cases (ops/op_cases.hpp).
#include "ops/op_cases.hpp"

#include <cmath>

namespace kbv::ops::softmax {

OpCases cases() {
  OpCases cases = softmax_like_cases();
  // 256 KiB rows, more than the SMs: each held on chip by its block (the CUDA baseline's
  // softmax_resident_f32.cuh, at its capacity); rows of 20000 leave some of its lanes empty
  cases.samples.push_back({"rows_in_turn", {{140, 65536}}, {{"axis", 1}}});
  cases.samples.push_back({"resident_partial_rows", {{6, 20000}}, {{"axis", 1}}});
  cases.costs = {{{{4096, 65536}}, {{"axis", 1}}, 2.0 * 4096 * 65536}};
  const std::vector<double> expected = {0.09003057317038046, 0.24472847105479767,
                                        0.6652409557748219};
  // axis 0 of [[1, 5], [2, 5]]: columns normalise independently.
  const double low = 1 / (1 + std::exp(1.0));
  cases.values = {{"softmax of 1, 2, 3", {{3}}, {{1, 2, 3}}, {}, expected},
                  {"shifted by 1000: exp would overflow without subtracting the max", {{3}},
                   {{1001, 1002, 1003}}, {}, expected},
                  {"along axis 0", {{2, 2}}, {{1, 5, 2, 5}}, {{"axis", 0}}, {low, 0.5, 1 - low, 0.5}}};
  return cases;
}

}  // namespace kbv::ops::softmax
