// ops/common/reference/scan_f64.hpp — the fp64 device reference of cumsum and cumprod.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace kbv::ops::reference {

// y = the running sum (or, with `product`, product) of x along the axis of [outer, extent,
// inner], from the axis' end when `reverse`, excluding the element itself when `exclusive`;
// asynchronous on `stream`.
void scan_f64(bool product, bool reverse, bool exclusive, const double* x, double* y, int64_t outer,
              int64_t axis_len, int64_t inner, cudaStream_t stream);

}  // namespace kbv::ops::reference
