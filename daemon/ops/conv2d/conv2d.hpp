// ops/conv2d/conv2d.hpp — 2-D cross-correlation with stride, zero padding, dilation and groups
// (torch.nn.functional.conv2d), NCHW input, OIHW weight, optional per-channel bias.
#pragma once

#include "ops/common/convolution.hpp"

namespace kbv::ops::conv2d {

struct Definition : ConvolutionDefinition<2, false> {
  static constexpr std::string_view name = "conv2d";
  static constexpr std::string_view inputs = "x[N,C,H,W], weight[O,C/groups,KH,KW], bias[O]?";
  static constexpr std::string_view semantics =
      "`stride_h`/`_w`, `padding_h`/`_w`, `dilation_h`/`_w` override the scalar along one axis (−1: the "
      "scalar's value); output floor((size + 2p − d(k−1) − 1)/s) + 1 per axis";
  static constexpr std::string_view flops_rule =
      "2·N·O·OH·OW·(C/groups)·KH·KW, counting only taps that land on the input (equal to the "
      "formula when padding is 0)";
  static constexpr std::string_view pytorch =
      "torch.nn.functional.conv2d(x, weight, bias, stride, padding, dilation, groups)";
};

}  // namespace kbv::ops::conv2d
