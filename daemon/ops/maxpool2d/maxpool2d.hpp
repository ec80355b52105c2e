// ops/maxpool2d/maxpool2d.hpp — 2-D max pooling over NCHW input (torch.nn.functional.max_pool2d);
// the window walk is ops/common/pool_window.hpp's, the attributes and checks
// ops/common/pooling.hpp's.
#pragma once

#include "ops/common/pooling.hpp"

namespace kbv::ops::maxpool2d {

struct Definition {
  static constexpr std::string_view name = "maxpool2d";
  static constexpr OpCategory category = OpCategory::window;
  static constexpr std::string_view inputs = "x[N,C,H,W]";
  static constexpr size_t min_inputs = 1;
  static constexpr size_t max_inputs = 1;
  static constexpr std::array attributes{
      pool_attribute::kernel,
      pool_attribute::stride,
      pool_attribute::padding,
      pool_attribute::dilation,
      pool_attribute::ceil_mode,
      pool_attribute::per_axis("kernel_h"),
      pool_attribute::per_axis("kernel_w"),
      pool_attribute::per_axis("stride_h"),
      pool_attribute::per_axis("stride_w"),
      pool_attribute::per_axis("padding_h"),
      pool_attribute::per_axis("padding_w"),
      pool_attribute::per_axis("dilation_h"),
      pool_attribute::per_axis("dilation_w")};
  static constexpr PrecisionClass precision = PrecisionClass::exact;
  static constexpr PoolSpec pool{pooling::PoolKind::max, 2};
  static constexpr std::string_view semantics =
      "stride 0 means the kernel size; padding acts as −inf; padding > kernel/2 is rejected as "
      "in PyTorch; ceil_mode drops a last window that would start in the right padding, as "
      "PyTorch; NaN propagates; `_h/_w` override an axis (−1: the scalar's value)";
  static constexpr std::string_view flops_rule =
      "1 per output whose window holds ≥ 2 input elements (a sliding-window max shares "
      "comparisons between overlapping windows, so per-tap counts would not be a bound)";
  static constexpr std::string_view pytorch =
      "torch.nn.functional.max_pool2d(x, kernel, stride or kernel, padding, dilation, ceil_mode)";
};

}  // namespace kbv::ops::maxpool2d
