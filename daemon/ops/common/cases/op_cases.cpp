// ops/common/cases/op_cases.cpp — every op folder's cases (over the op list daemon/ops/ops.cmake
// writes) and the cases elementwise ops share.
#include "ops/op_cases.hpp"

#include <limits>

#define KBV_OP(OP_NAME) \
  namespace kbv::ops::OP_NAME { ::kbv::ops::OpCases cases(); }
#include "ops/op_list.inc"
#undef KBV_OP

namespace kbv::ops {

const std::vector<NamedOpCases>& all_op_cases() {
  static const std::vector<NamedOpCases> cases = {
#define KBV_OP(OP_NAME) {#OP_NAME, ::kbv::ops::OP_NAME::cases()},
#include "ops/op_list.inc"
#undef KBV_OP
  };
  return cases;
}

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
}  // namespace

OpCases unary_cases() {
  OpCases cases;
  cases.samples = {{"vector", {{16, 256}}, {}},   // float4 path, no tail
                   {"tail", {{7, 129}}, {}},      // float4 path and a 3-element tail
                   {"small", {{3, 5, 7}}, {}}};   // fewer elements than one block
  cases.shapes = {{{{4, 5, 6}}, {}, {4, 5, 6}}};
  cases.costs = {{{{4096, 393216}}, {}, 4096.0 * 393216}};  // KernelBench L1 #19's relu
  cases.values = {{"NaN propagates", {{1}}, {{kNaN}}, {}, {kNaN}}};
  return cases;
}

OpCases binary_cases() {
  OpCases cases;
  cases.samples = {{"same_shape", {{8, 132}, {8, 132}}, {}},
                   {"channel_bias", {{2, 8, 6, 6}, {8, 1, 1}}, {}},
                   {"outer", {{5, 1}, {1, 7}}, {}},
                   {"row", {{6, 12}, {12}}, {}},
                   {"both_broadcast", {{4, 1, 6}, {3, 1}}, {}},
                   {"middle", {{2, 3, 4}, {3, 1}}, {}},
                   {"one_element", {{1}, {6, 2}}, {}}};
  cases.shapes = {{{{2, 3}, {2, 3}}, {}, {2, 3}},
                  {{{8, 10, 10}, {8, 1, 1}}, {}, {8, 10, 10}},
                  {{{2, 8, 10, 10}, {8, 1, 1}}, {}, {2, 8, 10, 10}},
                  {{{3}, {4, 1}}, {}, {4, 3}},
                  {{{1}, {5, 6}}, {}, {5, 6}}};
  cases.rejects = {{{{2, 3}, {3, 2}}, {}, "do not broadcast"},
                   {{{8, 10, 10}, {8}}, {}, "expected equal sizes or 1"}};
  cases.costs = {{{{128, 128, 126, 126}, {128, 1, 1}}, {}, 128.0 * 128 * 126 * 126},
                 {{{3, 1}, {1, 5}}, {}, 15.0}};
  cases.values = {{"NaN propagates", {{1}, {1}}, {{kNaN}, {1}}, {}, {kNaN}}};
  return cases;
}

}  // namespace kbv::ops
