// daemon/ops/softmax/cases.cpp — softmax's test cases (ops/op_cases.hpp).
#include "ops/op_cases.hpp"

#include <cmath>

namespace kbv::ops::softmax {

OpCases cases() {
  OpCases cases;
  cases.samples = {{"rows", {{16, 1024}}, {{"axis", -1}}},       // float4 rows
                   {"rows_odd", {{7, 999}}, {{"axis", 1}}},      // scalar rows
                   {"long_rows", {{2, 3, 700}}, {{"axis", -1}}},
                   {"columns", {{4, 33, 5}}, {{"axis", 1}}},     // inner 5
                   {"wide_columns", {{3, 8, 50}}, {{"axis", 1}}},  // inner 50: one thread each
                   {"axis0", {{40, 70}}, {{"axis", 0}}},
                   {"narrow", {{6, 40}}, {{"axis", 1}}},
                   // 256 KiB rows, more than the SMs: blocks walk several rows each (the grid
                   // keeps their bytes within half of L2, baseline.cu)
                   {"rows_in_turn", {{140, 65536}}, {{"axis", 1}}}};
  cases.shapes = {{{{4, 7}}, {{"axis", 1}}, {4, 7}}, {{{4, 7}}, {{"axis", -2}}, {4, 7}}};
  cases.rejects = {{{{4, 7}}, {{"axis", 2}}, "expected an axis in [-2, 1]"},
                   {{{4, 7}}, {{"axis", -3}}, "expected an integer >= -2"},
                   {{{4, 7}}, {{"axis", 0.5}}, "expected an integer"}};
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
