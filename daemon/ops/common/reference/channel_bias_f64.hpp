// ops/common/reference/channel_bias_f64.hpp — the bias of a linear layer or a convolution in
// the fp64 device references.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace kbv::ops::reference {

// y[(o * channels + c) * inner + i] += bias[c]; asynchronous on `stream`.
void add_channel_bias_f64(double* y, const double* bias, int64_t outer, int64_t channels,
                          int64_t inner, cudaStream_t stream);

}  // namespace kbv::ops::reference
