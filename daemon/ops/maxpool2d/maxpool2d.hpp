// ops/maxpool2d/maxpool2d.hpp — 2-D max pooling over NCHW input with stride, implicit -inf
// padding and dilation, floor mode (torch.nn.functional.max_pool2d, ceil_mode=False).
#pragma once

#include "ops/common/definition.hpp"

namespace kbv::ops::maxpool2d {

struct Definition {
  static constexpr std::string_view name = "maxpool2d";
  static constexpr OpCategory category = OpCategory::window;
  static constexpr std::string_view inputs = "x[N,C,H,W]";
  static constexpr size_t min_inputs = 1;
  static constexpr size_t max_inputs = 1;
  // torch.nn.MaxPool2d: stride defaults to kernel_size (spelled 0 here, since attributes are
  // numbers), padding 0, dilation 1. kbv's own default kernel is 2, the common 2x2 pool.
  static constexpr std::array attributes{Attribute{"kernel", 2}, Attribute{"stride", 0},
                                         Attribute{"padding", 0}, Attribute{"dilation", 1}};
  static constexpr PrecisionClass precision = PrecisionClass::exact;
  static constexpr std::string_view semantics =
      "stride 0 means the kernel size; floor mode; padding acts as −inf; padding > kernel/2 is "
      "rejected as in PyTorch; NaN propagates";
  static constexpr std::string_view flops_rule =
      "1 per output whose window holds ≥ 2 input elements (a sliding-window max shares "
      "comparisons between overlapping windows, so per-tap counts would not be a bound)";
  static constexpr std::string_view pytorch =
      "torch.nn.functional.max_pool2d(x, kernel, stride or kernel, padding, dilation)";
};

}  // namespace kbv::ops::maxpool2d
