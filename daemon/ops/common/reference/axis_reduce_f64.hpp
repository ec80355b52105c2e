// ops/common/reference/axis_reduce_f64.hpp — the fp64 device reference of sum and mean along one
// axis (the two differ by the final division).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace kbv::ops::reference {

// y[o, i] = sum (or mean) over the axis of x[o, :, i]; asynchronous on `stream`.
void reduce_axis_f64(bool mean, const double* x, double* y, int64_t outer, int64_t axis_len,
                     int64_t inner, cudaStream_t stream);

}  // namespace kbv::ops::reference
