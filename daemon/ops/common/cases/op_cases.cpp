// daemon/ops/common/cases/op_cases.cpp — every op folder's cases (over the op list
// daemon/ops/ops.cmake writes) and the cases elementwise ops share.
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

OpCases axis_reduction_cases() {
  OpCases cases;
  cases.samples = {{"columns", {{4, 32, 33}}, {{"axis", 1}, {"keepdim", 1}}},   // inner 33: columns
                   {"rows", {{6, 100}}, {{"axis", -1}, {"keepdim", 0}}},        // inner 1: rows
                   {"rows_vector", {{10, 64}}, {{"axis", 1}, {"keepdim", 0}}},  // float4 rows
                   {"narrow_columns", {{3, 4, 5}}, {{"axis", 0}, {"keepdim", 0}}},
                   {"first_axis", {{30, 5}}, {{"axis", 0}, {"keepdim", 0}}},
                   {"negative_axis", {{6, 7, 2}}, {{"axis", -2}, {"keepdim", 0}}}};
  cases.shapes = {{{{128, 4096, 4095}}, {{"axis", 1}, {"keepdim", 1}}, {128, 1, 4095}},
                  {{{128, 4096, 4095}}, {{"axis", 1}, {"keepdim", 0}}, {128, 4095}},
                  {{{3, 4}}, {}, {3, 1}},  // defaults: the last axis, kept
                  {{{5}}, {{"keepdim", 0}}, {}}};
  cases.rejects = {{{{3, 4}}, {{"axis", 2}}, "expected an axis"},
                   {{{3, 4}}, {{"keepdim", 2}}, "expected 0 (false) or 1 (true)"}};
  return cases;
}

}  // namespace kbv::ops
