// ops/common/baseline/batched_transpose.cuh — the batched transpose kernel, templated on what it
// does to the values it writes (an epilogue): 32×32 tiles through shared memory, so that both the
// reads and the writes of a warp are contiguous (CUDA C++ Best Practices Guide, "Shared Memory in
// Matrix Multiplication" / the transpose example: a naive transpose writes with a stride of
// `rows`); a wide form (64×64 tiles, float4 accesses) where the caller asks for it and both sides
// allow 16-byte accesses.
// batched_transpose.cu runs it with the convolution bias as the epilogue, conv_epilogue.cu with
// the bias and a fused elementwise chain.
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

// The wide form, for rows and cols that are multiples of 4 and 16-byte aligned buffers: 64×64
// tiles moved by 256 threads as float4s, four per thread in each phase, and an epilogue that gets
// four values of one column at a time. Where it pays (H100, bundle r69 against r68 in one call,
// docs/results/h100/conv-engines.md): conv2d_relu_biasadd's library went 2.798 → 2.406 ms with
// both its transposes wide, while its one-launch-per-node form, whose output pass carries the
// bias alone, went 3.509 → 3.709 ms. The two differ only in the output pass, so the wide form
// gained there with the elementwise chain as its epilogue (the narrow form gathers each lane's
// operands from four channels) and lost with the bias alone; which of the two the input pass
// moved is not known. So the caller chooses (`wide`): the convolution epilogue's pass runs wide,
// the plain transposes stay narrow until a round times each pass alone.
constexpr int kWideTile = 64;
constexpr int kWideThreads = 256;
constexpr int kVector = kLanes;                                                // floats per float4: one epilogue call
constexpr int kVectorsPerTileRow = kWideTile / kVector;                        // 16
constexpr int kWidePasses = kWideTile * kVectorsPerTileRow / kWideThreads;     // 4
static_assert(kWideTile * kVectorsPerTileRow % kWideThreads == 0, "every pass moves whole tile rows");

using WideTile = float[kWideTile][kWideTile + 1];  // +1: the column reads fall on at most two lanes per bank

__host__ __device__ __forceinline__ bool wide_form_fits(int64_t rows, int64_t cols, const void* src, const void* dst) {
  return rows % kVector == 0 && cols % kVector == 0 && reinterpret_cast<uintptr_t>(src) % 16 == 0 && reinterpret_cast<uintptr_t>(dst) % 16 == 0;
}

// Load: thread t reads, in pass p, the float4 (t + 256p) of the tile: row r = that / 16 of
// `from` (rows × cols), columns col0 + 4·(that % 16) … + 3. cols % 4 == 0, so a float4 is either
// wholly inside or wholly past the edge.
__host__ __device__ __forceinline__ void load_wide_tile(WideTile& tile, const float* __restrict__ from, int64_t rows, int64_t cols, int64_t row0,
                                                        int64_t col0, int t) {
KBV_UNROLL
  for (int p = 0; p < kWidePasses; ++p) {
    const int linear = t + p * kWideThreads;
    const int r = linear / kVectorsPerTileRow, c = (linear % kVectorsPerTileRow) * kVector;
    const int64_t i = row0 + r, j = col0 + c;
    if (i >= rows || j >= cols) continue;
#ifdef __CUDA_ARCH__
    const float4 v = *reinterpret_cast<const float4*>(from + i * cols + j);
    tile[r][c] = v.x, tile[r][c + 1] = v.y, tile[r][c + 2] = v.z, tile[r][c + 3] = v.w;
#else
    for (int k = 0; k < kVector; ++k) tile[r][c + k] = from[i * cols + j + k];
#endif
  }
}

// Store: thread t writes, in pass p, the float4 (t + 256p) of the transposed tile: row col0 + j
// (j = that / 16) of `to` (cols × rows), columns row0 + 4·(that % 16) … + 3, after
// `epilogue(values, columns)` changed them (all four of source column col0 + j).
template <class Epilogue>
__host__ __device__ __forceinline__ void store_wide_tile(const WideTile& tile, float* __restrict__ to, int64_t rows, int64_t cols, int64_t row0,
                                                         int64_t col0, int t, const Epilogue& epilogue) {
KBV_UNROLL
  for (int p = 0; p < kWidePasses; ++p) {
    const int linear = t + p * kWideThreads;
    const int j = linear / kVectorsPerTileRow, r = (linear % kVectorsPerTileRow) * kVector;
    const int64_t column = col0 + j, row = row0 + r;
    if (column >= cols || row >= rows) continue;
    float values[kVector];
    int64_t columns[kVector];
KBV_UNROLL
    for (int k = 0; k < kVector; ++k) values[k] = tile[r + k][j], columns[k] = column;
    epilogue(values, columns);
#ifdef __CUDA_ARCH__
    *reinterpret_cast<float4*>(to + column * rows + row) = make_float4(values[0], values[1], values[2], values[3]);
#else
    for (int k = 0; k < kVector; ++k) to[column * rows + row + k] = values[k];
#endif
  }
}

template <class Epilogue>
__global__ void __launch_bounds__(kWideThreads) batched_transpose_wide_kernel(const float* __restrict__ src, float* __restrict__ dst, int64_t batch,
                                                                              int64_t rows, int64_t cols, Epilogue epilogue) {
  __shared__ WideTile tile;
  const int64_t row_tiles = (rows + kWideTile - 1) / kWideTile;
  const int64_t col0 = static_cast<int64_t>(blockIdx.x) * kWideTile;
  const int t = static_cast<int>(threadIdx.x);
  for (int64_t b = blockIdx.z; b < batch; b += gridDim.z) {
    const float* from = src + b * rows * cols;
    float* to = dst + b * rows * cols;
    for (int64_t row_tile = blockIdx.y; row_tile < row_tiles; row_tile += gridDim.y) {
      const int64_t row0 = row_tile * kWideTile;
      load_wide_tile(tile, from, rows, cols, row0, col0, t);
      __syncthreads();
      store_wide_tile(tile, to, rows, cols, row0, col0, t, epilogue);
      __syncthreads();
    }
  }
}

// The wide form when `wide` is asked for and fits (wide_form_fits), else the 32×32 one.
template <class Epilogue>
void launch(const float* src, float* dst, int64_t batch, int64_t rows, int64_t cols, const Epilogue& epilogue, cudaStream_t stream, bool wide) {
  if (batch <= 0 || rows <= 0 || cols <= 0) return;
  if (wide && wide_form_fits(rows, cols, src, dst)) {
    const dim3 grid(static_cast<unsigned>((cols + kWideTile - 1) / kWideTile),
                    static_cast<unsigned>(std::min((rows + kWideTile - 1) / kWideTile, kMaxGridYZ)), static_cast<unsigned>(std::min(batch, kMaxGridYZ)));
    batched_transpose_wide_kernel<<<grid, kWideThreads, 0, stream>>>(src, dst, batch, rows, cols, epilogue);
    return;
  }
  const dim3 block(kTile, kTileRowsPerPass);
  const dim3 grid(static_cast<unsigned>((cols + kTile - 1) / kTile), static_cast<unsigned>(std::min((rows + kTile - 1) / kTile, kMaxGridYZ)),
                  static_cast<unsigned>(std::min(batch, kMaxGridYZ)));
  batched_transpose_kernel<<<grid, block, 0, stream>>>(src, dst, batch, rows, cols, epilogue);
}

}  // namespace kbv::ops::baseline::transpose
