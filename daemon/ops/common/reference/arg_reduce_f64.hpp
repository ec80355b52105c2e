// ops/common/reference/arg_reduce_f64.hpp — the fp64 device reference of argmax and argmin.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace kbv::ops::reference {

// y[o, i] = the first position a of the maximum (max) or minimum of x[o, :, i], a NaN beating
// every number, as a double; asynchronous on `stream`.
void arg_extreme_f64(bool max, const double* x, double* y, int64_t outer, int64_t axis_len, int64_t inner,
                     cudaStream_t stream);

}  // namespace kbv::ops::reference
