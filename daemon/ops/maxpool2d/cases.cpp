// daemon/ops/maxpool2d/cases.cpp — maxpool2d's test cases (ops/op_cases.hpp).
#include "ops/op_cases.hpp"

#include <limits>

namespace kbv::ops::maxpool2d {

OpCases cases() {
  OpCases cases;
  cases.samples = {
      // KernelBench L1 #42's geometry: the baseline's register-tiled unit-stride kernel.
      {"k4_s1_p1", {{2, 4, 16, 16}}, {{"kernel", 4}, {"stride", 1}, {"padding", 1}}},
      {"k2_default_stride", {{2, 3, 9, 9}}, {{"kernel", 2}}},
      // Ragged tile edges in both directions.
      {"k3_s1_p1_ragged", {{2, 3, 37, 45}}, {{"kernel", 3}, {"stride", 1}, {"padding", 1}}},
      {"k5_s1_p2", {{1, 2, 21, 130}}, {{"kernel", 5}, {"stride", 1}, {"padding", 2}}},
      {"k2_s1_p0", {{3, 1, 17, 9}}, {{"kernel", 2}, {"stride", 1}}},
      // Dilation and strides other than 1: one thread per output.
      {"k3_s1_dilated", {{1, 2, 20, 20}}, {{"kernel", 3}, {"stride", 1}, {"dilation", 2}}},
      {"k3_p1_dilated", {{2, 3, 11, 9}}, {{"kernel", 3}, {"padding", 1}, {"dilation", 2}}},
      {"k4_s1_p1_odd", {{2, 3, 10, 9}}, {{"kernel", 4}, {"stride", 1}, {"padding", 1}}},
      {"k3_s2_p1_dilated", {{1, 2, 11, 11}}, {{"kernel", 3}, {"stride", 2}, {"padding", 1}, {"dilation", 2}}},
      {"defaults", {{1, 2, 8, 8}}, {}}};
  cases.shapes = {
      {{{32, 64, 512, 512}}, {{"kernel", 4}, {"stride", 1}, {"padding", 1}, {"dilation", 1}},
       {32, 64, 511, 511}},
      {{{1, 1, 7, 7}}, {}, {1, 1, 3, 3}},                                    // k2, stride = kernel
      {{{1, 1, 9, 9}}, {{"kernel", 3}, {"dilation", 2}}, {1, 1, 2, 2}}};     // floor((9 − 4 − 1) / 3) + 1
  cases.rejects = {
      {{{1, 1, 8, 8}}, {{"kernel", 3}, {"padding", 2}}, "expected padding <= kernel/2 (1)"},
      {{{1, 1, 1, 1}}, {{"kernel", 3}, {"padding", 0}}, "does not fit input 1x1"},
      {{{1, 8, 8}}, {}, "expected rank 4"},
      {{{1, 1, 8, 8}}, {{"kernel", 0}}, "expected an integer >= 1"}};
  cases.costs = {
      // 3x3 image, kernel 2, stride 1, padding 1: 4x4 outputs, the 4 corners see one pixel.
      {{{1, 1, 3, 3}}, {{"kernel", 2}, {"stride", 1}, {"padding", 1}}, 12.0},
      // No padding: every window has 4 pixels, one count per output.
      {{{2, 3, 8, 8}}, {}, 2.0 * 3 * 4 * 4},
      // A 1x1 window compares nothing.
      {{{1, 1, 5, 5}}, {{"kernel", 1}}, 0.0},
      // KernelBench L1 #42: 511x511 outputs, windows of at least 3x3 real pixels everywhere.
      {{{32, 64, 512, 512}}, {{"kernel", 4}, {"stride", 1}, {"padding", 1}, {"dilation", 1}},
       32.0 * 64 * 511 * 511}};
  const std::vector<double> image = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  std::vector<double> negative;
  for (double v : image) negative.push_back(-v);
  const Attrs padded = {{"kernel", 2}, {"stride", 1}, {"padding", 1}};
  const Attrs strided = {{"kernel", 2}, {"stride", 2}, {"padding", 1}};
  // 4x4 -> 2x2 with kernel 2, stride 0 (= kernel).
  const std::vector<double> x = {1, 5, 2, 0, 3, 4, 8, 1, 0, 0, 9, 9, -1, 2, 9, 10};
  std::vector<double> with_nan = x;
  with_nan[0] = std::numeric_limits<double>::quiet_NaN();
  cases.values = {
      {"padding is −inf", {{1, 1, 3, 3}}, {image}, padded,
       {1, 2, 3, 3, 4, 5, 6, 6, 7, 8, 9, 9, 7, 8, 9, 9}},
      {"all negative: zero padding would wrongly give 0 on the border", {{1, 1, 3, 3}}, {negative},
       padded, {-1, -1, -2, -3, -1, -1, -2, -3, -4, -4, -5, -6, -7, -7, -8, -9}},
      {"stride 2 with padding: windows start at -1 and 1", {{1, 1, 3, 3}}, {image}, strided,
       {1, 3, 7, 9}},
      {"stride 2 with padding, negative", {{1, 1, 3, 3}}, {negative}, strided, {-1, -2, -4, -5}},
      {"default stride is the kernel", {{1, 1, 4, 4}}, {x}, {}, {5, 8, 2, 10}},
      {"a NaN in the window wins", {{1, 1, 4, 4}}, {with_nan}, {},
       {std::numeric_limits<double>::quiet_NaN(), 8, 2, 10}}};
  return cases;
}

}  // namespace kbv::ops::maxpool2d
