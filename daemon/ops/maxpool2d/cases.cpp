// daemon/ops/maxpool2d/cases.cpp — maxpool2d's test cases (ops/op_cases.hpp). The ceil_mode and
// per-axis values are PyTorch 2.11's torch.nn.functional.max_pool2d on the CPU in float64.
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
      {"defaults", {{1, 2, 8, 8}}, {}},
      // ceil_mode (which changes nothing at stride 1) and per-axis geometries: one thread per output.
      {"k3_s2_p1_ceil", {{2, 3, 10, 11}}, {{"kernel", 3}, {"stride", 2}, {"padding", 1}, {"ceil_mode", 1}}},
      {"per_axis", {{2, 2, 12, 17}},
       {{"kernel_h", 1}, {"kernel_w", 3}, {"stride_h", 1}, {"stride_w", 2}, {"padding_w", 1}, {"dilation_w", 2}}},
      {"per_axis_unit_stride", {{1, 3, 8, 9}}, {{"kernel_h", 3}, {"kernel_w", 2}, {"stride", 1}}}};
  cases.shapes = {
      {{{32, 64, 512, 512}}, {{"kernel", 4}, {"stride", 1}, {"padding", 1}, {"dilation", 1}},
       {32, 64, 511, 511}},
      {{{1, 1, 7, 7}}, {}, {1, 1, 3, 3}},                                    // k2, stride = kernel
      {{{1, 1, 9, 9}}, {{"kernel", 3}, {"dilation", 2}}, {1, 1, 2, 2}},      // floor((9 − 4 − 1) / 3) + 1
      {{{1, 1, 4, 5}}, {{"kernel", 2}, {"stride", 2}, {"ceil_mode", 1}}, {1, 1, 2, 3}},
      // KernelBench L3 #18 (SqueezeNet): k3 s2 ceil_mode over 224 → 112 and 54 → 27 (floor
      // mode: 111 and 26).
      {{{1, 96, 224, 224}}, {{"kernel", 3}, {"stride", 2}, {"ceil_mode", 1}}, {1, 96, 112, 112}},
      {{{1, 96, 54, 54}}, {{"kernel", 3}, {"stride", 2}, {"ceil_mode", 1}}, {1, 96, 27, 27}},
      {{{1, 1, 4, 5}}, {{"kernel_h", 1}, {"kernel_w", 3}, {"stride_h", 1}, {"stride_w", 2}, {"padding_w", 1}},
       {1, 1, 4, 3}}};
  cases.rejects = {
      {{{1, 1, 8, 8}}, {{"kernel", 3}, {"padding", 2}}, "expected padding <= kernel/2 (1)"},
      {{{1, 1, 1, 1}}, {{"kernel", 3}, {"padding", 0}}, "does not fit the input's size 1 along H"},
      {{{1, 1, 8, 8}}, {{"kernel_w", 3}, {"padding_w", 2}}, "padding 2 with kernel 3 along W"},
      {{{1, 1, 8, 8}}, {{"kernel_h", -2}}, "expected -1 (the value of kernel) or an integer >= 1"},
      {{{1, 1, 8, 8}}, {{"stride_w", 1.5}}, "attribute stride_w is 1.5; expected an integer"},
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
       32.0 * 64 * 511 * 511},
      // ceil_mode over 4×5 with k2 s2: the last column of windows holds one element per row, the
      // corner window (rows 2-3, column 4) two; every other window four.
      {{{1, 1, 4, 5}}, {{"kernel", 2}, {"stride", 2}, {"ceil_mode", 1}}, 6.0}};
  const std::vector<double> image = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  std::vector<double> negative;
  for (double v : image) negative.push_back(-v);
  const Attrs padded = {{"kernel", 2}, {"stride", 1}, {"padding", 1}};
  const Attrs strided = {{"kernel", 2}, {"stride", 2}, {"padding", 1}};
  // 4x4 -> 2x2 with kernel 2, stride 0 (= kernel).
  const std::vector<double> x = {1, 5, 2, 0, 3, 4, 8, 1, 0, 0, 9, 9, -1, 2, 9, 10};
  const std::vector<double> wide = {1, 5, 2, 0, 3, 4, 8, 1, 0, 0, 9, 9, -1, 2, 9, 10, -3, 6, 7, 1};  // 4×5
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
       {std::numeric_limits<double>::quiet_NaN(), 8, 2, 10}},
      {"ceil_mode: the last window column holds one input column", {{1, 1, 4, 5}}, {wide},
       {{"kernel", 2}, {"stride", 2}, {"ceil_mode", 1}}, {8, 2, 3, 10, 7, 9}},
      {"per axis: kernel 1x3, stride 1x2, padding 0x1", {{1, 1, 4, 5}}, {wide},
       {{"kernel_h", 1}, {"kernel_w", 3}, {"stride_h", 1}, {"stride_w", 2}, {"padding_w", 1}},
       {5, 5, 3, 8, 8, 0, 9, 9, 9, 10, 7, 7}},
      {"per axis: kernel 3x2, dilation 1x2", {{1, 1, 4, 5}}, {wide},
       {{"kernel_h", 3}, {"kernel_w", 2}, {"stride", 1}, {"dilation_w", 2}}, {9, 9, 9, 10, 9, 9}}};
  return cases;
}

}  // namespace kbv::ops::maxpool2d
