// ops/common/baseline/batched_transpose.cuh — the batched transpose kernel, templated on what it
// does to the values it writes (an epilogue): 32×32 tiles through shared memory, so that both the
// reads and the writes of a warp are contiguous (CUDA C++ Best Practices Guide, "Shared Memory in
// Matrix Multiplication" / the transpose example: a naive transpose writes with a stride of
// `rows`). batched_transpose.cu runs it with the convolution bias as the epilogue,
// conv_epilogue.cu with the bias and a fused elementwise chain.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>

#include "ops/common/scalar_math.hpp"  // KBV_UNROLL

namespace kbv::ops::baseline::transpose {

constexpr int kTile = 32;
constexpr int kTileRowsPerPass = 8;  // a 32×8 block moves a 32×32 tile in four passes
// Values each thread writes per tile: one per pass, handed to the epilogue together.
constexpr int kLanes = kTile / kTileRowsPerPass;
// Grid limits (CUDA: gridDim.y and gridDim.z at most 65535): the tile rows and the batch loop
// over what does not fit.
constexpr int64_t kMaxGridYZ = 65535;

using Tile = float[kTile][kTile + 1];  // +1: the column reads hit 32 different banks

// One thread's share of a tile's two phases, which the kernel separates by __syncthreads(): host
// code too, so that a test without a GPU can play a block's threads through both phases.
// Load: thread (tx, ty) reads rows row0 + ty, ty + 8, … of column col0 + tx of `from` (rows × cols).
__host__ __device__ __forceinline__ void load_tile(Tile& tile, const float* __restrict__ from, int64_t rows, int64_t cols, int64_t row0,
                                                   int64_t col0, int tx, int ty) {
  for (int r = ty; r < kTile; r += kTileRowsPerPass) {
    const int64_t i = row0 + r, j = col0 + tx;
    if (i < rows && j < cols) tile[r][tx] = from[i * cols + j];
  }
}

// Store: thread (tx, ty) writes row i = row0 + tx of columns col0 + ty, ty + 8, … of the
// transposed tile into `to` (cols × rows), after `epilogue(values, columns)` changed its kLanes
// values in place (lane l of source column columns[l], always < cols: a lane past the edge gets
// the last column and its value is not written).
template <class Epilogue>
__host__ __device__ __forceinline__ void store_tile(const Tile& tile, float* __restrict__ to, int64_t rows, int64_t cols, int64_t row0,
                                                    int64_t col0, int tx, int ty, const Epilogue& epilogue) {
  const int64_t i = row0 + tx;
  float values[kLanes];
  int64_t columns[kLanes];
KBV_UNROLL
  for (int l = 0; l < kLanes; ++l) {
    const int c = ty + l * kTileRowsPerPass;
    values[l] = tile[tx][c];
    columns[l] = col0 + c < cols ? col0 + c : cols - 1;
  }
  epilogue(values, columns);
KBV_UNROLL
  for (int l = 0; l < kLanes; ++l) {
    const int64_t j = col0 + ty + l * kTileRowsPerPass;
    if (i < rows && j < cols) to[j * rows + i] = values[l];
  }
}

// dst[b][j][i] = epilogue(src[b][i][j]) for every b < batch, i < rows, j < cols (see store_tile).
template <class Epilogue>
__global__ void batched_transpose_kernel(const float* __restrict__ src, float* __restrict__ dst, int64_t batch, int64_t rows, int64_t cols,
                                         Epilogue epilogue) {
  __shared__ Tile tile;
  const int64_t row_tiles = (rows + kTile - 1) / kTile;
  const int64_t col0 = static_cast<int64_t>(blockIdx.x) * kTile;
  const int tx = static_cast<int>(threadIdx.x), ty = static_cast<int>(threadIdx.y);
  for (int64_t b = blockIdx.z; b < batch; b += gridDim.z) {
    const float* from = src + b * rows * cols;
    float* to = dst + b * rows * cols;
    for (int64_t row_tile = blockIdx.y; row_tile < row_tiles; row_tile += gridDim.y) {
      const int64_t row0 = row_tile * kTile;
      load_tile(tile, from, rows, cols, row0, col0, tx, ty);
      __syncthreads();
      store_tile(tile, to, rows, cols, row0, col0, tx, ty, epilogue);
      __syncthreads();  // the tile is read before the next one is written
    }
  }
}

template <class Epilogue>
void launch(const float* src, float* dst, int64_t batch, int64_t rows, int64_t cols, const Epilogue& epilogue, cudaStream_t stream) {
  if (batch <= 0 || rows <= 0 || cols <= 0) return;
  const dim3 block(kTile, kTileRowsPerPass);
  const dim3 grid(static_cast<unsigned>((cols + kTile - 1) / kTile), static_cast<unsigned>(std::min((rows + kTile - 1) / kTile, kMaxGridYZ)),
                  static_cast<unsigned>(std::min(batch, kMaxGridYZ)));
  batched_transpose_kernel<<<grid, block, 0, stream>>>(src, dst, batch, rows, cols, epilogue);
}

}  // namespace kbv::ops::baseline::transpose
