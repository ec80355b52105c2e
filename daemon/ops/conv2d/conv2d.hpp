// ops/conv2d/conv2d.hpp — 2-D cross-correlation with stride, zero padding, dilation and groups
// (torch.nn.functional.conv2d), NCHW input, OIHW weight, optional per-channel bias.
#pragma once

#include "ops/common/definition.hpp"

namespace kbv::ops::conv2d {

struct Definition {
  static constexpr std::string_view name = "conv2d";
  static constexpr OpCategory category = OpCategory::window;
  static constexpr std::string_view inputs = "x[N,C,H,W], weight[O,C/groups,KH,KW], bias[O]?";
  static constexpr size_t min_inputs = 2;
  static constexpr size_t max_inputs = 3;
  // torch.nn.Conv2d's defaults.
  static constexpr std::array attributes{Attribute{"stride", 1}, Attribute{"padding", 0},
                                         Attribute{"dilation", 1}, Attribute{"groups", 1}};
  static constexpr PrecisionClass precision = PrecisionClass::tensor_core;
  static constexpr std::string_view semantics =
      "square (one value for both dims); output floor((size + 2p − d(k−1) − 1)/s) + 1";
  static constexpr std::string_view flops_rule =
      "2·N·O·OH·OW·(C/groups)·KH·KW, counting only taps that land on the input (equal to the "
      "formula when padding is 0)";
  static constexpr std::string_view pytorch =
      "torch.nn.functional.conv2d(x, weight, bias, stride, padding, dilation, groups)";
};

}  // namespace kbv::ops::conv2d
