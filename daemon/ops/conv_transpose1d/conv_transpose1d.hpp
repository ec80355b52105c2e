// ops/conv_transpose1d/conv_transpose1d.hpp — 1-D transposed convolution, the adjoint of conv1d with the
// same attributes (torch.nn.functional.conv_transpose1d): stride, padding, output_padding, dilation,
// groups, optional per-channel bias.
#pragma once

#include "ops/common/convolution.hpp"

namespace kbv::ops::conv_transpose1d {

struct Definition : ConvolutionDefinition<1, true> {
  static constexpr std::string_view name = "conv_transpose1d";
  static constexpr std::string_view inputs = "x[N,C,L], weight[C,O/groups,K], bias[O]?";
  static constexpr std::string_view semantics =
      "each x[n, c, s] scatters x·w[c, o′, k] into y[n, group·O/groups + o′, s·stride − padding + "
      "k·dilation], terms outside the output dropped, bias added once; output (L − 1)·s − 2p + "
      "d(k−1) + output_padding + 1; output_padding < max(stride, dilation)";
  static constexpr std::string_view flops_rule =
      "2·N·C·(O/groups)·L·K, counting only taps that land inside the output (equal to the formula when "
      "padding is 0)";
  static constexpr std::string_view pytorch =
      "torch.nn.functional.conv_transpose1d(x, weight, bias, stride, padding, output_padding, groups, dilation)";
};

}  // namespace kbv::ops::conv_transpose1d
