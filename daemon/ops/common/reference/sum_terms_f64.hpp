// ops/common/reference/sum_terms_f64.hpp — the second half of the losses' fp64 device reference
// (ops/common/reference/sum_terms_f64.cuh): per-block partial sums added in a fixed order.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace kbv::ops::reference {

// *out = (Σ partials[0 .. blocks)) / divisor, one block in a fixed order; asynchronous on `stream`.
void finish_sum_f64(const double* partials, unsigned blocks, double divisor, double* out,
                    cudaStream_t stream);

}  // namespace kbv::ops::reference
