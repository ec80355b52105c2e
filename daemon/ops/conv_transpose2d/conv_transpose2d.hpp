// ops/conv_transpose2d/conv_transpose2d.hpp — 2-D transposed convolution, the adjoint of conv2d with the
// same attributes (torch.nn.functional.conv_transpose2d): stride, padding, output_padding, dilation,
// groups, optional per-channel bias.
#pragma once

#include "ops/common/convolution.hpp"

namespace kbv::ops::conv_transpose2d {

struct Definition : ConvolutionDefinition<2, true> {
  static constexpr std::string_view name = "conv_transpose2d";
  static constexpr std::string_view inputs = "x[N,C,H,W], weight[C,O/groups,KH,KW], bias[O]?";
  static constexpr std::string_view semantics =
      "`<attribute>_h`/`_w` override the scalar along one axis (−1: the scalar's value); each x[n, "
      "c, s] scatters x·w[c, o′, k] into y[n, group·O/groups + o′, s·stride − padding + "
      "k·dilation], terms outside the output dropped, bias added once; output (size − 1)·s − 2p + "
      "d(k−1) + output_padding + 1 per axis; output_padding < max(stride, dilation)";
  static constexpr std::string_view flops_rule =
      "2·N·C·(O/groups)·H·W·KH·KW, counting only taps that land inside the output (equal to the formula when "
      "padding is 0)";
  static constexpr std::string_view pytorch =
      "torch.nn.functional.conv_transpose2d(x, weight, bias, stride, padding, output_padding, groups, dilation)";
};

}  // namespace kbv::ops::conv_transpose2d
