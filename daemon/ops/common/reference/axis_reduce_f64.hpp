// ops/common/reference/axis_reduce_f64.hpp — the fp64 device reference of the reductions over
// adjacent axes (sum, mean, amax, amin, logsumexp, norm), on a tensor seen as [outer, extent,
// inner].
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace kbv::ops::reference {

// max and min propagate NaN (torch.amax/amin); logsumexp is m + log(Σ exp(x − m)), m the max,
// a non-finite m returned as it is; norm is (Σ|x|^p)^(1/p).
enum class AxisReduction { sum, mean, max, min, logsumexp, norm };

// y[o, i] = the reduction over a of x[o, a, i]; `p` is norm's order (unused otherwise);
// asynchronous on `stream`.
void reduce_axis_f64(AxisReduction kind, double p, const double* x, double* y, int64_t outer,
                     int64_t axis_len, int64_t inner, cudaStream_t stream);

}  // namespace kbv::ops::reference
