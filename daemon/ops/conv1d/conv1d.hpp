// ops/conv1d/conv1d.hpp — 1-D cross-correlation with stride, zero padding, dilation and groups
// (torch.nn.functional.conv1d), NCL input, OCK weight, optional per-channel bias.
#pragma once

#include "ops/common/convolution.hpp"

namespace kbv::ops::conv1d {

struct Definition : ConvolutionDefinition<1, false> {
  static constexpr std::string_view name = "conv1d";
  static constexpr std::string_view inputs = "x[N,C,L], weight[O,C/groups,K], bias[O]?";
  static constexpr std::string_view semantics = "output floor((L + 2p − d(k−1) − 1)/s) + 1";
  static constexpr std::string_view flops_rule =
      "2·N·O·OL·(C/groups)·K, counting only taps that land on the input (equal to the formula when "
      "padding is 0)";
  static constexpr std::string_view pytorch =
      "torch.nn.functional.conv1d(x, weight, bias, stride, padding, dilation, groups)";
};

}  // namespace kbv::ops::conv1d
