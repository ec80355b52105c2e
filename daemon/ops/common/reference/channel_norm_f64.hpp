// ops/common/reference/channel_norm_f64.hpp — the fp64 device reference batchnorm, groupnorm and
// instancenorm share: every statistics set (ops/common/channel_sets.hpp) normalised with its
// mean and biased variance, two passes, then the per-channel affine part.
#pragma once

#include <cuda_runtime_api.h>

#include "ops/common/channel_sets.hpp"

namespace kbv::ops::reference {

// y = (x − mean)/sqrt(var + eps)·weight[c] + bias[c] per set; weight and bias may be null.
// Asynchronous on `stream` (its scratch is stream-ordered). Deterministic: every sum has a fixed
// order that does not depend on the device.
void channel_norm_f64(const ChannelSets& sets, const double* x, const double* weight, const double* bias,
                      double eps, double* y, cudaStream_t stream);

}  // namespace kbv::ops::reference
