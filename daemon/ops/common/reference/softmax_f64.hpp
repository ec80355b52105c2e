// ops/common/reference/softmax_f64.hpp — the fp64 device reference of softmax and log_softmax
// along one axis of [outer, extent, inner].
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace kbv::ops::reference {

// y = softmax (or, with `log_form`, log_softmax) of x along the axis; asynchronous on `stream`.
void softmax_f64(bool log_form, const double* x, double* y, int64_t outer, int64_t axis_len, int64_t inner,
                 cudaStream_t stream);

}  // namespace kbv::ops::reference
