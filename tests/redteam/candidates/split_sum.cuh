// split_sum.cuh — sum_dim1 as a two-pass split reduction, for the honest candidates that need a
// scratch buffer and differ only in where it comes from (the stream-ordered default pool,
// cudaMalloc in run(), a workspace from create()): pass 1 writes each split's partial sum of a
// column to the scratch, pass 2 adds a column's partials in a fixed order (deterministic).
// Plain CUDA and kbv/plugin.h only, so a raw C ABI candidate can use it too.
#pragma once

#include <kbv/plugin.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace split_sum {

constexpr int kThreads = 256;
// Splits of the summed axis per column: enough blocks to fill an H200 at KernelBench's 128
// batches; the partials take kSplits × batch × dim2 floats (8.4 MB at the default shape).
constexpr int64_t kSplits = 4;

// The [outer, extent, inner] view of sum_dim1's x, reduced over axis 1.
struct Shape {
  int64_t outer = 0, extent = 0, inner = 0;
};

// false when the call is not sum_dim1's x [batch, dim1, dim2] → y [batch, 1, dim2].
inline bool shape_of(const kbv_call& call, Shape* shape) {
  if (call.num_inputs != 1 || call.num_outputs != 1 || call.inputs[0].rank != 3) return false;
  const kbv_tensor& x = call.inputs[0];
  int64_t outputs = 1;
  for (uint32_t d = 0; d < call.outputs[0].rank; ++d) outputs *= call.outputs[0].shape[d];
  if (outputs != x.shape[0] * x.shape[2]) return false;
  *shape = {x.shape[0], x.shape[1], x.shape[2]};
  return true;
}

// Scratch bytes for `rows` rows of the output at a time.
inline size_t scratch_bytes(const Shape& shape, int64_t rows) {
  return static_cast<size_t>(kSplits * rows * shape.inner) * sizeof(float);
}

__global__ void partials_kernel(const float* __restrict__ x, float* __restrict__ partials, int64_t extent, int64_t inner,
                                int64_t first_outer) {
  const int64_t row = blockIdx.z;  // within this pass
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= inner) return;
  const int64_t per_split = (extent + kSplits - 1) / kSplits;
  const int64_t begin = blockIdx.y * per_split, end = min(begin + per_split, extent);
  const float* column = x + (first_outer + row) * extent * inner + i;
  float sum = 0.0f;
  for (int64_t a = begin; a < end; ++a) sum += column[a * inner];
  partials[(blockIdx.y * gridDim.z + row) * inner + i] = sum;
}

__global__ void add_kernel(const float* __restrict__ partials, float* __restrict__ y, int64_t rows, int64_t inner,
                           int64_t first_outer) {
  const int64_t index = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (index >= rows * inner) return;
  float sum = 0.0f;
  for (int64_t s = 0; s < kSplits; ++s) sum += partials[s * rows * inner + index];
  y[first_outer * inner + index] = sum;
}

// y = Σ over axis 1 of x, `rows_per_pass` output rows at a time through `partials` (at least
// scratch_bytes(shape, rows_per_pass)); the launch error, if any.
inline cudaError_t run(const float* x, float* y, float* partials, const Shape& shape, int64_t rows_per_pass, cudaStream_t stream) {
  for (int64_t first = 0; first < shape.outer; first += rows_per_pass) {
    const int64_t rows = std::min(rows_per_pass, shape.outer - first);
    const dim3 grid(static_cast<unsigned>((shape.inner + kThreads - 1) / kThreads), static_cast<unsigned>(kSplits),
                    static_cast<unsigned>(rows));
    partials_kernel<<<grid, kThreads, 0, stream>>>(x, partials, shape.extent, shape.inner, first);
    if (const cudaError_t error = cudaGetLastError(); error != cudaSuccess) return error;
    add_kernel<<<static_cast<unsigned>((rows * shape.inner + kThreads - 1) / kThreads), kThreads, 0, stream>>>(partials, y, rows,
                                                                                                               shape.inner, first);
    if (const cudaError_t error = cudaGetLastError(); error != cudaSuccess) return error;
  }
  return cudaSuccess;
}

}  // namespace split_sum
