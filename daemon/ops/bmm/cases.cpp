// daemon/ops/bmm/cases.cpp — bmm's test cases (ops/op_cases.hpp).
#include "ops/op_cases.hpp"

namespace kbv::ops::bmm {

OpCases cases() {
  OpCases cases;
  cases.samples = {{"aligned", {{4, 32, 48}, {4, 48, 40}}, {}},
                   {"odd", {{3, 9, 20}, {3, 20, 11}}, {}}};
  cases.shapes = {{{{128, 512, 1024}, {128, 1024, 2048}}, {}, {128, 512, 2048}}};
  cases.rejects = {{{{2, 3, 4}, {3, 4, 5}}, {}, "equal batch sizes"},
                   {{{2, 3, 4}, {2, 5, 6}}, {}, "b.shape[1] == a.shape[2]"},
                   {{{3, 4}, {4, 5}}, {}, "expected rank 3"}};
  cases.costs = {{{{128, 512, 1024}, {128, 1024, 2048}}, {}, 2.0 * 128 * 512 * 1024 * 2048}};
  cases.values = {{"two 1x2 · 2x1 products", {{2, 1, 2}, {2, 2, 1}}, {{1, 2, 3, 4}, {5, 6, 7, 8}},
                   {}, {17, 53}}};
  return cases;
}

}  // namespace kbv::ops::bmm
