// ops/batchnorm/batchnorm.hpp — batch normalisation in training mode, as KernelBench leaves
// every model: per channel, the batch's mean and biased variance (torch.nn.functional.batch_norm
// with training=True); an optional per-channel weight and bias.
#pragma once

#include "ops/common/channel_norm.hpp"

namespace kbv::ops::batchnorm {

struct Definition : ChannelNormDefinition {
  static constexpr std::string_view name = "batchnorm";
  // torch.nn.BatchNorm*d: eps = 1e-5. momentum only updates the running statistics, which the
  // output never reads in training mode, so it is no attribute.
  static constexpr std::array attributes{Attribute{"eps", 1e-5}};
  static constexpr std::string_view semantics =
      "training mode: per channel, mean and biased variance over every axis but 1 (two passes); "
      "weight and bias both or neither; running statistics are no inputs (the output never "
      "reads them)";
  static constexpr std::string_view pytorch =
      "torch.nn.functional.batch_norm(x, None, None, weight, bias, training=True, eps=eps)";
};

}  // namespace kbv::ops::batchnorm
