// ops/common/reference/pool_f64.hpp — the pooling ops' CUDA fp64 reference: one thread per
// output, each evaluating ops/common/pool_window.hpp's pooled_value in double.
#pragma once

#include <cuda_runtime_api.h>

#include "ops/common/pool_window.hpp"

namespace kbv::ops::reference {

// y[geometry.outputs()] from x[geometry.planes · in_plane]; asynchronous on `stream`.
void pool_f64(const pooling::PoolGeometry& geometry, const double* x, double* y, cudaStream_t stream);

}  // namespace kbv::ops::reference
