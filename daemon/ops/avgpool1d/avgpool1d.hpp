// ops/avgpool1d/avgpool1d.hpp — 1-D average pooling over [N, C, L]
// (torch.nn.functional.avg_pool1d); the window walk is ops/common/pool_window.hpp's, the attributes
// and checks ops/common/pooling.hpp's.
#pragma once

#include "ops/common/pooling.hpp"

namespace kbv::ops::avgpool1d {

struct Definition {
  static constexpr std::string_view name = "avgpool1d";
  static constexpr OpCategory category = OpCategory::window;
  static constexpr std::string_view inputs = "x[N,C,L]";
  static constexpr size_t min_inputs = 1;
  static constexpr size_t max_inputs = 1;
  static constexpr std::array attributes{
      pool_attribute::kernel,
      pool_attribute::stride,
      pool_attribute::padding,
      pool_attribute::ceil_mode,
      pool_attribute::count_include_pad};
  static constexpr PrecisionClass precision = PrecisionClass::exact;
  static constexpr PoolSpec pool{pooling::PoolKind::average, 1};
  static constexpr std::string_view semantics =
      "stride 0 means the kernel size; padding > kernel/2 is rejected as in PyTorch; ceil_mode "
      "drops a last window that would start in the right padding; divisor: the window clipped "
      "to the padded input with count_include_pad, else the taps inside the input (PyTorch's "
      "rule)";
  static constexpr std::string_view flops_rule =
      "1 per output element (the divide; sliding sums share their adds, so per-tap counts would"
      " not be a bound)";
  static constexpr std::string_view pytorch =
      "torch.nn.functional.avg_pool1d(x, kernel, stride or kernel, padding, ceil_mode, count_include_pad)";
};

}  // namespace kbv::ops::avgpool1d
