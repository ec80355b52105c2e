// daemon/ops/flip/cases.cpp — flip's test cases (ops/op_cases.hpp): the innermost, a middle and
// the outermost axis run backwards (a negative stride in the strided copy).
#include <limits>

#include "ops/op_cases.hpp"

namespace kbv::ops::flip {

OpCases cases() {
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  OpCases cases;
  cases.samples = {{"last", {{8, 45}}, {{"axis", -1}}},
                   {"middle", {{3, 10, 7}}, {{"axis", 1}}},
                   {"first", {{12, 40}}, {}}};
  cases.shapes = {{{{2, 3}}, {}, {2, 3}}, {{{2, 3}}, {{"axis", -1}}, {2, 3}}};
  cases.rejects = {{{{2, 3}}, {{"axis", 2}}, "expected an axis in [-2, 1]"}};
  cases.costs = {{{{128, 32768}}, {{"axis", 1}}, 0}};
  // From PyTorch: torch.flip(torch.arange(1, 7.).reshape(2, 3), [1]), [0], and a NaN moved.
  const std::vector<double> x = {1, 2, 3, 4, 5, 6};
  cases.values = {{"rows reversed", {{2, 3}}, {x}, {{"axis", 1}}, {3, 2, 1, 6, 5, 4}},
                  {"columns reversed", {{2, 3}}, {x}, {}, {4, 5, 6, 1, 2, 3}},
                  {"a NaN moves with its element", {{3}}, {{kNaN, 1, 2}}, {}, {2, 1, kNaN}}};
  return cases;
}

}  // namespace kbv::ops::flip
