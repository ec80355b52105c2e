// daemon/ops/matmul/cases.cpp — matmul's test cases (ops/op_cases.hpp).
#include "ops/op_cases.hpp"

namespace kbv::ops::matmul {

OpCases cases() {
  OpCases cases;
  cases.samples = {{"aligned", {{64, 48}, {48, 80}}, {}},
                   {"irregular", {{67, 45}, {45, 83}}, {}},
                   {"odd", {{17, 45}, {45, 23}}, {}},
                   {"one_row", {{1, 1}, {1, 5}}, {}}};
  cases.shapes = {{{{8205, 2949}, {2949, 5921}}, {}, {8205, 5921}}};
  cases.rejects = {{{{3, 4}, {5, 6}}, {}, "expected b.shape[0] == a.shape[1]"},
                   {{{3, 4, 5}, {5, 6}}, {}, "expected rank 2 [M, K]"}};
  cases.costs = {{{{4096, 4096}, {4096, 4096}}, {}, 2.0 * 4096 * 4096 * 4096},
                 {{{8205, 2949}, {2949, 5921}}, {}, 2.0 * 8205 * 2949 * 5921}};
  cases.values = {{"2x2", {{2, 2}, {2, 2}}, {{1, 2, 3, 4}, {5, 6, 7, 8}}, {}, {19, 22, 43, 50}},
                  {"1x3 · 3x2", {{1, 3}, {3, 2}}, {{1, 2, 3}, {1, 0, 0, 1, 1, 1}}, {}, {4, 5}}};
  return cases;
}

}  // namespace kbv::ops::matmul
