// ops/adaptive_avgpool2d/adaptive_avgpool2d.hpp — 2-D adaptive average pooling over NCHW input
// (torch.nn.functional.adaptive_avg_pool2d); the window walk is ops/common/pool_window.hpp's, the
// attributes and checks ops/common/pooling.hpp's.
#pragma once

#include "ops/common/pooling.hpp"

namespace kbv::ops::adaptive_avgpool2d {

struct Definition {
  static constexpr std::string_view name = "adaptive_avgpool2d";
  static constexpr OpCategory category = OpCategory::window;
  static constexpr std::string_view inputs = "x[N,C,H,W]";
  static constexpr size_t min_inputs = 1;
  static constexpr size_t max_inputs = 1;
  static constexpr std::array attributes{
      pool_attribute::output_size};
  static constexpr PrecisionClass precision = PrecisionClass::exact;
  static constexpr PoolSpec pool{pooling::PoolKind::adaptive_average, 2};
  static constexpr std::string_view semantics =
      "one output_size for every spatial axis; window i of an axis of extent S covers "
      "[floor(i·S/out), ceil((i+1)·S/out)), as PyTorch";
  static constexpr std::string_view flops_rule =
      "numel(x) (every element added at least once, one divide per output)";
  static constexpr std::string_view pytorch =
      "torch.nn.functional.adaptive_avg_pool2d(x, output_size)";
};

}  // namespace kbv::ops::adaptive_avgpool2d
