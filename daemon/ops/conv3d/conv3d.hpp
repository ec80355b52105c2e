// ops/conv3d/conv3d.hpp — 3-D cross-correlation with stride, zero padding, dilation and groups
// (torch.nn.functional.conv3d), NCDHW input, OIDHW weight, optional per-channel bias.
#pragma once

#include "ops/common/convolution.hpp"

namespace kbv::ops::conv3d {

struct Definition : ConvolutionDefinition<3, false> {
  static constexpr std::string_view name = "conv3d";
  static constexpr std::string_view inputs = "x[N,C,D,H,W], weight[O,C/groups,KD,KH,KW], bias[O]?";
  static constexpr std::string_view semantics =
      "`<attribute>_d`/`_h`/`_w` override the scalar along one axis (−1: the scalar's value); output "
      "floor((size + 2p − d(k−1) − 1)/s) + 1 per axis";
  static constexpr std::string_view flops_rule =
      "2·N·O·OD·OH·OW·(C/groups)·KD·KH·KW, counting only taps that land on the input (equal to the "
      "formula when padding is 0)";
  static constexpr std::string_view pytorch =
      "torch.nn.functional.conv3d(x, weight, bias, stride, padding, dilation, groups)";
};

}  // namespace kbv::ops::conv3d
