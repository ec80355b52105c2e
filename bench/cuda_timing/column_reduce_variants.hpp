// bench/cuda_timing/column_reduce_variants.hpp — sum over the middle axis of [outer, extent,
// inner] (the column reduction of axis_f32.cuh) in forms that are not kbv's library yet, for
// --column-reduce (column_reduce.cpp) to time beside the library's.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>
#include <vector>

namespace kbv::bench {

struct ColumnReduceVariant {
  std::string name;
  int index;
};

std::vector<ColumnReduceVariant> column_reduce_variants();

// y[o, i] = Σ_a x[o, a, i] by `variant`.
void run_column_reduce_variant(const ColumnReduceVariant& variant, const float* x, float* y, int64_t outer, int64_t extent, int64_t inner,
                               cudaStream_t stream);

}  // namespace kbv::bench
