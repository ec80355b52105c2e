// ops/conv_transpose3d/conv_transpose3d.hpp — 3-D transposed convolution, the adjoint of conv3d with the
// same attributes (torch.nn.functional.conv_transpose3d): stride, padding, output_padding, dilation,
// groups, optional per-channel bias.
#pragma once

#include "ops/common/convolution.hpp"

namespace kbv::ops::conv_transpose3d {

struct Definition : ConvolutionDefinition<3, true> {
  static constexpr std::string_view name = "conv_transpose3d";
  static constexpr std::string_view inputs = "x[N,C,D,H,W], weight[C,O/groups,KD,KH,KW], bias[O]?";
  static constexpr std::string_view semantics =
      "`<attribute>_d`/`_h`/`_w` override the scalar along one axis (−1: the scalar's value); each "
      "x[n, c, s] scatters x·w[c, o′, k] into y[n, group·O/groups + o′, s·stride − padding + "
      "k·dilation], terms outside the output dropped, bias added once; output (size − 1)·s − 2p + "
      "d(k−1) + output_padding + 1 per axis; output_padding < max(stride, dilation)";
  static constexpr std::string_view flops_rule =
      "2·N·C·(O/groups)·D·H·W·KD·KH·KW, counting only taps that land inside the output (equal to the formula when "
      "padding is 0)";
  static constexpr std::string_view pytorch =
      "torch.nn.functional.conv_transpose3d(x, weight, bias, stride, padding, output_padding, groups, dilation)";
};

}  // namespace kbv::ops::conv_transpose3d
