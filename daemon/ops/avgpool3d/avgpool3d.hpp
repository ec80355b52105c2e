// ops/avgpool3d/avgpool3d.hpp — 3-D average pooling over NCDHW input
// (torch.nn.functional.avg_pool3d); the window walk is ops/common/pool_window.hpp's, the attributes
// and checks ops/common/pooling.hpp's.
#pragma once

#include "ops/common/pooling.hpp"

namespace kbv::ops::avgpool3d {

struct Definition {
  static constexpr std::string_view name = "avgpool3d";
  static constexpr OpCategory category = OpCategory::window;
  static constexpr std::string_view inputs = "x[N,C,D,H,W]";
  static constexpr size_t min_inputs = 1;
  static constexpr size_t max_inputs = 1;
  static constexpr std::array attributes{
      pool_attribute::kernel,
      pool_attribute::stride,
      pool_attribute::padding,
      pool_attribute::ceil_mode,
      pool_attribute::count_include_pad,
      pool_attribute::per_axis("kernel_d"),
      pool_attribute::per_axis("kernel_h"),
      pool_attribute::per_axis("kernel_w"),
      pool_attribute::per_axis("stride_d"),
      pool_attribute::per_axis("stride_h"),
      pool_attribute::per_axis("stride_w"),
      pool_attribute::per_axis("padding_d"),
      pool_attribute::per_axis("padding_h"),
      pool_attribute::per_axis("padding_w")};
  static constexpr PrecisionClass precision = PrecisionClass::exact;
  static constexpr PoolSpec pool{pooling::PoolKind::average, 3};
  static constexpr std::string_view semantics =
      "stride 0 means the kernel size; padding > kernel/2 is rejected as in PyTorch; ceil_mode "
      "drops a last window that would start in the right padding; divisor: the window clipped "
      "to the padded input with count_include_pad, else the taps inside the input (PyTorch's "
      "rule); `_d/_h/_w` override an axis (−1: the scalar's value)";
  static constexpr std::string_view flops_rule =
      "1 per output element (the divide; sliding sums share their adds, so per-tap counts would"
      " not be a bound)";
  static constexpr std::string_view pytorch =
      "torch.nn.functional.avg_pool3d(x, kernel, stride or kernel, padding, ceil_mode, count_include_pad)";
};

}  // namespace kbv::ops::avgpool3d
