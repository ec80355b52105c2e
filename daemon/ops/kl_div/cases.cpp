// daemon/ops/kl_div/cases.cpp — kl_div's test cases (ops/op_cases.hpp). The hand-worked values
// were checked with PyTorch 2.11 on the CPU in float64 (torch.nn.functional.kl_div,
// reduction='batchmean').
//
// The samples take log_target 1: they draw Normal(0, 1) inputs, and a negative probability
// target makes log_target 0's xlogy NaN. log_target 0 is the other branch of the one term every
// face shares (kl_div.hpp); the values below check it on the host and on the device.
#include "ops/op_cases.hpp"

#include <cmath>
#include <limits>

namespace kbv::ops::kl_div {

OpCases cases() {
  OpCases cases;
  const Attrs log_target{{"log_target", 1}};
  cases.samples = {{"rows", {{16, 1024}, {16, 1024}}, log_target},
                   {"odd", {{7, 33}, {7, 33}}, log_target},
                   {"many_blocks", {{64, 4096}, {64, 4096}}, log_target},
                   {"rank3", {{3, 5, 7}, {3, 5, 7}}, log_target},
                   {"one_row", {{1, 9}, {1, 9}}, log_target}};
  cases.shapes = {{{{16384, 16384}, {16384, 16384}}, {}, {}},
                  {{{2, 3, 4}, {2, 3, 4}}, log_target, {}}};
  cases.rejects = {{{{4, 5}, {4, 6}}, {}, "expected input and target of one shape"},
                   {{{4, 5}, {4, 5}}, {{"log_target", 2}}, "attribute log_target is 2"}};
  cases.costs = {{{{16384, 16384}, {16384, 16384}}, {}, 3.0 * 16384 * 16384}};
  const std::vector<Shape> two_by_two{{2, 2}, {2, 2}};
  const std::vector<std::vector<double>> data{{-1, 0.5, 2, -0.25}, {0.25, 0, 0.5, 1}};
  const double nan = std::numeric_limits<double>::quiet_NaN();
  cases.values = {
      {"probability target, over 2 rows; a zero target adds nothing", two_by_two, data, {},
       {-0.5965735902799727}},
      {"log target", two_by_two, data, log_target, {1.0149010751916454}},
      {"KL(y ‖ x) for input log x: x = (0.2, 0.3, 0.5), y = (0.1, 0.6, 0.3)", {{1, 3}, {1, 3}},
       {{std::log(0.2), std::log(0.3), std::log(0.5)}, {0.1, 0.6, 0.3}}, {}, {0.19332590315017548}},
      {"a negative target is NaN (xlogy)", two_by_two, {data[0], {0.25, -0.5, 0.5, 1}}, {}, {nan}},
      {"input −inf under a zero target: 0·inf is NaN, as PyTorch", {{1, 2}, {1, 2}},
       {{-std::numeric_limits<double>::infinity(), 0}, {0, 0.5}}, {}, {nan}}};
  return cases;
}

}  // namespace kbv::ops::kl_div
