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
                   {"negative_axis", {{6, 7, 2}}, {{"axis", -2}, {"keepdim", 0}}},
                   // count: adjacent axes folded into one extent
                   {"two_axes_columns", {{3, 4, 5, 6}}, {{"axis", 1}, {"count", 2}, {"keepdim", 1}}},
                   {"two_trailing_axes", {{6, 8, 16}}, {{"axis", 1}, {"count", 2}, {"keepdim", 0}}},
                   {"every_axis", {{4, 8, 16}}, {{"axis", 0}, {"count", 3}, {"keepdim", 0}}},
                   // one row of 32768: the CUDA baselines split it over blocks (split_pieces)
                   {"every_axis_split", {{4, 8192}}, {{"axis", 0}, {"count", 2}, {"keepdim", 0}}}};
  cases.shapes = {{{{128, 4096, 4095}}, {{"axis", 1}, {"keepdim", 1}}, {128, 1, 4095}},
                  {{{128, 4096, 4095}}, {{"axis", 1}, {"keepdim", 0}}, {128, 4095}},
                  {{{3, 4}}, {}, {3, 1}},  // defaults: the last axis, kept
                  {{{5}}, {{"keepdim", 0}}, {}},
                  {{{2, 3, 4, 5}}, {{"axis", 2}, {"count", 2}}, {2, 3, 1, 1}},
                  {{{2, 3, 4, 5}}, {{"axis", -3}, {"count", 2}, {"keepdim", 0}}, {2, 5}},
                  {{{2, 3, 4}}, {{"axis", 0}, {"count", 3}, {"keepdim", 0}}, {}}};  // rank 0
  cases.rejects = {{{{3, 4}}, {{"axis", 2}}, "expected an axis"},
                   {{{3, 4}}, {{"keepdim", 2}}, "expected 0 (false) or 1 (true)"},
                   {{{3, 4}}, {{"axis", 1}, {"count", 2}}, "expected count <= 1"},
                   {{{3, 4}}, {{"count", 0}}, "expected an integer >= 1"}};
  return cases;
}

OpCases softmax_like_cases() {
  OpCases cases;
  cases.samples = {{"rows", {{16, 1024}}, {{"axis", -1}}},       // float4 rows
                   {"rows_odd", {{7, 999}}, {{"axis", 1}}},      // scalar rows
                   {"long_rows", {{2, 3, 700}}, {{"axis", -1}}},
                   {"columns", {{4, 33, 5}}, {{"axis", 1}}},     // inner 5
                   {"wide_columns", {{3, 8, 50}}, {{"axis", 1}}},  // inner 50: one thread each
                   {"axis0", {{40, 70}}, {{"axis", 0}}},
                   {"narrow", {{6, 40}}, {{"axis", 1}}}};
  cases.shapes = {{{{4, 7}}, {{"axis", 1}}, {4, 7}}, {{{4, 7}}, {{"axis", -2}}, {4, 7}}};
  cases.rejects = {{{{4, 7}}, {{"axis", 2}}, "expected an axis in [-2, 1]"},
                   {{{4, 7}}, {{"axis", -3}}, "expected an integer >= -2"},
                   {{{4, 7}}, {{"axis", 0.5}}, "expected an integer"}};
  return cases;
}

OpCases scan_cases() {
  OpCases cases;
  cases.samples = {{"rows", {{6, 100}}, {}},                                  // one chunk per row
                   {"long_rows", {{3, 2500}}, {}},                            // three chunks of 1024
                   {"reverse", {{5, 1500}}, {{"reverse", 1}}},
                   {"exclusive", {{5, 1500}}, {{"exclusive", 1}}},
                   {"reverse_exclusive", {{4, 77}}, {{"reverse", 1}, {"exclusive", 1}}},
                   {"columns", {{4, 16, 40}}, {{"axis", 1}}},                 // one thread per column
                   {"columns_reverse_exclusive", {{3, 20, 8}}, {{"axis", 1}, {"reverse", 1}, {"exclusive", 1}}},
                   {"first_axis", {{30, 5}}, {{"axis", 0}}}};
  cases.shapes = {{{{32768, 32768}}, {{"axis", 1}}, {32768, 32768}}, {{{4, 5, 6}}, {{"axis", -2}}, {4, 5, 6}}};
  cases.rejects = {{{{3, 4}}, {{"axis", 2}}, "expected an axis"},
                   {{{3, 4}}, {{"reverse", 2}}, "expected 0 (false) or 1 (true)"},
                   {{{3, 4}}, {{"exclusive", 0.5}}, "expected 0 (false) or 1 (true)"}};
  // KernelBench L1 #89-#92: [32768, 32768] along axis 1; extent − 1 − exclusive per row.
  cases.costs = {{{{32768, 32768}}, {{"axis", 1}}, 32768.0 * 32767},
                 {{{32768, 32768}}, {{"axis", 1}, {"exclusive", 1}}, 32768.0 * 32766},
                 {{{2, 1}}, {{"exclusive", 1}}, 0}};
  return cases;
}

OpCases triangle_cases() {
  OpCases cases;
  cases.samples = {{"square", {{64, 64}}, {}},
                   {"wide_above", {{12, 50}}, {{"diagonal", 3}}},
                   {"tall_below", {{50, 12}}, {{"diagonal", -2}}},
                   {"batch", {{3, 2, 17, 17}}, {{"diagonal", 1}}},
                   {"filled", {{4, 9, 9}}, {{"fill", -3.5}}}};  // a finite fill: the comparisons' norms stay finite
  cases.shapes = {{{{4096, 4096}}, {}, {4096, 4096}}, {{{2, 3, 4}}, {{"diagonal", -5}}, {2, 3, 4}},
                  {{{1, 8, 512, 512}}, {{"fill", -std::numeric_limits<double>::infinity()}}, {1, 8, 512, 512}}};
  cases.rejects = {{{{7}}, {}, "expected rank 2 or more"}, {{{3, 4}}, {{"diagonal", 0.5}}, "expected an integer"},
                   {{{3, 4}}, {{"fill", std::numeric_limits<double>::quiet_NaN()}}, "is NaN"}};
  cases.costs = {{{{4096, 4096}}, {}, 0}};  // L1 #14/#15's masks after the matmul
  return cases;
}

OpCases arg_reduction_cases() {
  OpCases cases;
  cases.samples = {{"columns", {{4, 32, 33}}, {{"axis", 1}}},                   // inner 33: columns
                   {"rows", {{6, 100}}, {}},                                    // inner 1: rows
                   {"rows_vector", {{10, 64}}, {{"axis", 1}, {"keepdim", 1}}},  // float4 rows
                   {"long_rows", {{3, 5000}}, {}},                              // several loads a thread
                   {"split_row", {{2, 40000}}, {}},                             // rows split over blocks
                   {"narrow_columns", {{3, 4, 5}}, {{"axis", 0}}},
                   {"negative_axis", {{6, 7, 2}}, {{"axis", -2}}}};
  cases.shapes = {{{{128, 4096, 4095}}, {{"axis", 1}}, {128, 4095}},
                  {{{128, 4096, 4095}}, {{"axis", 1}, {"keepdim", 1}}, {128, 1, 4095}},
                  {{{5}}, {}, {}}};  // rank 0
  cases.rejects = {{{{3, 4}}, {{"axis", 2}}, "expected an axis"},
                   {{{2, 16777217}}, {}, "expected at most 2^24"}};
  return cases;
}

}  // namespace kbv::ops
