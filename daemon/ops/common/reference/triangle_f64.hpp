// ops/common/reference/triangle_f64.hpp — the fp64 device reference of tril and triu.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace kbv::ops::reference {

// y = x where the element of its [rows, columns] matrix is kept (ops/common/triangle.hpp), else
// `fill`; `count` elements; asynchronous on `stream`.
void triangle_f64(bool lower, int64_t diagonal, double fill, const double* x, double* y, int64_t count, int64_t rows,
                  int64_t columns, cudaStream_t stream);

}  // namespace kbv::ops::reference
