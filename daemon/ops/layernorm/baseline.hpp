// ops/layernorm/baseline.hpp — how layernorm's CUDA baseline splits its rows (host code, tested
// on its own in tests/cuda/measure/geometry_test.cpp).
#pragma once

#include <cstddef>
#include <cstdint>

namespace kbv::ops::layernorm {

// Layer normalisation over the last `cols` elements of each of `rows` rows (Welford).
struct LayerNormGeometry {
  int64_t rows = 0;
  int64_t cols = 0;
  int64_t chunks = 1;      // blocks per row; 1 = one fused kernel, else moments + normalise
  int64_t chunk_cols = 0;  // columns per chunk (a multiple of 4)
};

// Splits long rows across blocks when there are too few rows to fill `sm_count` SMs.
LayerNormGeometry plan_layernorm(int64_t rows, int64_t cols, int sm_count);

// Device scratch the split path needs for per-chunk partial moments (0 when chunks == 1).
size_t layernorm_scratch_bytes(const LayerNormGeometry& geometry);

}  // namespace kbv::ops::layernorm
