// ops/common/baseline/batched_transpose.cuh — the batched transpose kernel, templated on what it
// does to the values it writes (an epilogue): 32×32 tiles through shared memory, so that both the
// reads and the writes of a warp are contiguous (CUDA C++ Best Practices Guide, "Shared Memory in
// Matrix Multiplication" / the transpose example: a naive transpose writes with a stride of
// `rows`); a wide form (64×64 tiles, float4 accesses) where the caller asks for it and both sides
// allow 16-byte accesses; a long-row form (32 source columns × 128 source rows, float4 loads) for
// the convolution's input and output passes.
// batched_transpose.cu runs it with the convolution bias as the epilogue (ColumnBias),
// conv_epilogue.cu with the bias and a fused elementwise chain.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>

#include "ops/common/baseline/batched_transpose.hpp"  // TransposeForm
#include "ops/common/scalar_math.hpp"                 // KBV_UNROLL

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
// The block's share of the tiles of kRowSide source rows × kColSide source columns: column tile
// blockIdx.x of every batch entry b ≡ blockIdx.z (mod gridDim.z) and every row tile ≡ blockIdx.y
// (mod gridDim.y), each handed to `move(from, to, row0, col0)` with the entry's source and
// destination matrices.
template <int kRowSide, int kColSide = kRowSide, class Move>
__device__ __forceinline__ void for_each_block_tile(const float* src, float* dst, int64_t batch, int64_t rows, int64_t cols, Move&& move) {
  const int64_t row_tiles = (rows + kRowSide - 1) / kRowSide;
  const int64_t col0 = static_cast<int64_t>(blockIdx.x) * kColSide;
  for (int64_t b = blockIdx.z; b < batch; b += gridDim.z) {
    const float* from = src + b * rows * cols;
    float* to = dst + b * rows * cols;
    for (int64_t row_tile = blockIdx.y; row_tile < row_tiles; row_tile += gridDim.y) move(from, to, row_tile * kRowSide, col0);
  }
}

template <class Epilogue>
__global__ void batched_transpose_kernel(const float* __restrict__ src, float* __restrict__ dst, int64_t batch, int64_t rows, int64_t cols,
                                         Epilogue epilogue) {
  __shared__ Tile tile;
  const int tx = static_cast<int>(threadIdx.x), ty = static_cast<int>(threadIdx.y);
  for_each_block_tile<kTile>(src, dst, batch, rows, cols, [&](const float* from, float* to, int64_t row0, int64_t col0) {
    load_tile(tile, from, rows, cols, row0, col0, tx, ty);
    __syncthreads();
    store_tile(tile, to, rows, cols, row0, col0, tx, ty, epilogue);
    __syncthreads();  // the tile is read before the next one is written
  });
}

// The wide form, for rows and cols that are multiples of 4 and 16-byte aligned buffers: 64×64
// tiles moved by 256 threads as float4s, four per thread in each phase, and an epilogue that gets
// four values of one column (one output channel) at a time: epilogue(values, column). Where it
// pays (H100, bundle r69 against r68 in one call, docs/results/h100/conv-engines.md):
// conv2d_relu_biasadd's library went 2.798 → 2.406 ms with its output pass wide, its elementwise
// chain as the epilogue; the output pass with the bias alone was slower wide (1.06 ms against the
// narrow form's 0.84: r73, docs/results/h100/timing.md), so the caller chooses (`wide`).
constexpr int kWideTile = 64;
constexpr int kWideThreads = 256;
constexpr int kVector = kLanes;                                                // floats per float4: one epilogue call
constexpr int kVectorsPerTileRow = kWideTile / kVector;                        // 16
constexpr int kWidePasses = kWideTile * kVectorsPerTileRow / kWideThreads;     // 4
constexpr int kWarp = 32;
static_assert(kWideTile * kVectorsPerTileRow % kWideThreads == 0, "every pass moves whole tile rows");

using WideTile = float[kWideTile][kWideTile + 1];  // +1: a column read falls on distinct banks for distinct rows

__host__ __device__ __forceinline__ bool wide_form_fits(int64_t rows, int64_t cols, const void* src, const void* dst) {
  return rows % kVector == 0 && cols % kVector == 0 && reinterpret_cast<uintptr_t>(src) % 16 == 0 && reinterpret_cast<uintptr_t>(dst) % 16 == 0;
}

// How a warp covers the tile in each phase: the float4 thread t moves in pass p lies on `line` (a
// row of the source in the load, a column of it in the store) at `offset` along the other side.
//  - two_lines: float4 t + 256p in the tile's order, so a warp covers 2 lines × 16 float4s; its
//    scalar shared-memory accesses conflict two ways (32 lanes on 16 banks).
//  - four_lines: a warp covers 4 lines × 8 float4s (lane L at line 4·block + L/8, float4
//    8·half + L%8, block = warp + 8·(p/2), half = p%2): with 65-float rows its 32 lanes fall on
//    32 banks, and a thread keeps one line for passes 0–1 and one for 2–3.
// Measured alone (H100, r82, docs/results/h100/timing.md; kbv_bench_cuda_timing
// --conv-passes): the input pass (no epilogue) 0.412 ms two_lines, 0.377 four_lines (copy: 0.364);
// the output pass with the relu → add chain 0.765 two_lines, 0.956 four_lines. So the plain
// transpose takes four_lines and the convolution epilogue two_lines (its Epilogue::kWideMapping).
enum class WideMapping { two_lines, four_lines };

struct WideSlot {
  int line, offset;
};

template <WideMapping kMapping>
__host__ __device__ __forceinline__ WideSlot wide_slot(int t, int p) {
  if constexpr (kMapping == WideMapping::four_lines) {
    const int warp = t / kWarp, lane = t % kWarp;
    const int block = warp + (kWideThreads / kWarp) * (p / 2), half = p % 2;
    return {4 * block + lane / 8, (8 * half + lane % 8) * kVector};
  } else {
    const int linear = t + p * kWideThreads;
    return {linear / kVectorsPerTileRow, (linear % kVectorsPerTileRow) * kVector};
  }
}

// Load: thread t reads, in pass p, the float4 at wide_slot: row row0 + line of `from` (rows ×
// cols), columns col0 + offset … + 3. cols % 4 == 0, so a float4 is either wholly inside or
// wholly past the edge.
template <WideMapping kMapping>
__host__ __device__ __forceinline__ void load_wide_tile(WideTile& tile, const float* __restrict__ from, int64_t rows, int64_t cols, int64_t row0,
                                                        int64_t col0, int t) {
KBV_UNROLL
  for (int p = 0; p < kWidePasses; ++p) {
    const WideSlot s = wide_slot<kMapping>(t, p);
    const int r = s.line, c = s.offset;
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

// Store: thread t writes, in pass p, the float4 at wide_slot of the transposed tile: row col0 +
// line of `to` (cols × rows), columns row0 + offset … + 3, after `epilogue(values, column)`
// changed them (all four of source column col0 + line).
template <WideMapping kMapping, class Epilogue>
__host__ __device__ __forceinline__ void store_wide_tile(const WideTile& tile, float* __restrict__ to, int64_t rows, int64_t cols, int64_t row0,
                                                         int64_t col0, int t, const Epilogue& epilogue) {
KBV_UNROLL
  for (int p = 0; p < kWidePasses; ++p) {
    const WideSlot s = wide_slot<kMapping>(t, p);
    const int j = s.line, r = s.offset;
    const int64_t column = col0 + j, row = row0 + r;
    if (column >= cols || row >= rows) continue;
    float values[kVector];
KBV_UNROLL
    for (int k = 0; k < kVector; ++k) values[k] = tile[r + k][j];
    epilogue(values, column);
#ifdef __CUDA_ARCH__
    *reinterpret_cast<float4*>(to + column * rows + row) = make_float4(values[0], values[1], values[2], values[3]);
#else
    for (int k = 0; k < kVector; ++k) to[column * rows + row + k] = values[k];
#endif
  }
}

// The wide kernel's body: thread t's share of the block's tiles through `tile`, the epilogue's
// mapping (kbv_bench_cuda_timing's variants run it under other launch bounds).
template <class Epilogue>
__device__ __forceinline__ void move_wide_tiles(WideTile& tile, const float* __restrict__ src, float* __restrict__ dst, int64_t batch, int64_t rows,
                                                int64_t cols, int t, const Epilogue& epilogue) {
  constexpr WideMapping kMapping = Epilogue::kWideMapping;
  for_each_block_tile<kWideTile>(src, dst, batch, rows, cols, [&](const float* from, float* to, int64_t row0, int64_t col0) {
    load_wide_tile<kMapping>(tile, from, rows, cols, row0, col0, t);
    __syncthreads();
    store_wide_tile<kMapping>(tile, to, rows, cols, row0, col0, t, epilogue);
    __syncthreads();
  });
}

template <class Epilogue>
__global__ void __launch_bounds__(kWideThreads) batched_transpose_wide_kernel(const float* __restrict__ src, float* __restrict__ dst, int64_t batch,
                                                                              int64_t rows, int64_t cols, Epilogue epilogue) {
  __shared__ WideTile tile;
  move_wide_tiles(tile, src, dst, batch, rows, cols, static_cast<int>(threadIdx.x), epilogue);
}

// The long-row form, for sources whose columns are a multiple of 4 in a 16-byte aligned buffer
// (the destination takes 4-byte stores): a block moves kLongCols (32) source columns × kLongRows
// (128) source rows, so each warp writes 512 contiguous bytes of a destination row where the 64×64
// tile writes 256. Load: float4s of 4 columns of one source row, 8 lanes covering a row's 32
// columns, written column-major into shared memory with a row pitch of kLongRows + 1 (the 32 lanes
// of a warp then fall on 32 distinct banks). Store: warp w takes columns w, w + 8, …; lane L holds
// rows L, L + 32, L + 64, L + 96 of its column, hands them to epilogue(values, column) (the wide
// form's call: four values of one column), and writes them with 4-byte stores, each instruction
// 128 contiguous bytes. Conflict-free shared-memory accesses both ways. Measured (H200, r88,
// conv2d_relu_biasadd's output pass, docs/results/timing.md; kbv_bench_cuda_timing --conv-passes):
// with the bias alone 0.544 ms against the narrow form's 0.759 and the wide one's 1.060 (a copy of
// the bytes: 0.496); with the bias and relu → add 0.721 against the wide form's 0.789. 256 source
// rows a block ran 0.730. r91 (H200) again: bias alone 0.520, relu → add 0.705; and the input pass
// (64 channels × 16384 pixels a image, half of each tile's rows) 0.276 ms against the wide form's
// 0.332 (a copy: 0.260), so the input pass takes this form too. The chain's interpreter is what
// the relu → add pass pays over the bias alone: the same kernel with relu → add written out ran
// 0.538 (bench/cuda_timing/conv_pass_variants.cu).
constexpr int kLongCols = 32;
constexpr int kLongRows = 128;
constexpr int kLongThreads = 256;
constexpr int kLongPitch = kLongRows + 1;
constexpr int kLongVectorsPerRow = kLongCols / kVector;                      // 8
constexpr int kLongLoadPasses = kLongRows * kLongVectorsPerRow / kLongThreads;  // 4
constexpr int kLongWarps = kLongThreads / kWarp;                             // 8
static_assert(kLongRows == kWarp * kVector, "a lane's rows of one column are one epilogue call");
static_assert(kLongRows * kLongVectorsPerRow % kLongThreads == 0, "every load pass moves whole source rows");

using LongTile = float[kLongCols * kLongPitch];  // column c, row r at c * kLongPitch + r

__host__ __device__ __forceinline__ bool long_form_fits(int64_t cols, const void* src) {
  return cols % kVector == 0 && reinterpret_cast<uintptr_t>(src) % 16 == 0;
}

// Load: thread t reads, in pass q, the float4 f = t + q·kLongThreads of the tile: source row
// row0 + f / 8, columns col0 + 4·(f % 8) … + 3 (wholly inside or wholly past the edge: cols % 4 == 0).
__host__ __device__ __forceinline__ void load_long_tile(LongTile& tile, const float* __restrict__ from, int64_t rows, int64_t cols, int64_t row0,
                                                        int64_t col0, int t) {
KBV_UNROLL
  for (int q = 0; q < kLongLoadPasses; ++q) {
    const int f = t + q * kLongThreads;
    const int r = f / kLongVectorsPerRow, c = (f % kLongVectorsPerRow) * kVector;
    const int64_t i = row0 + r, j = col0 + c;
    if (i >= rows || j >= cols) continue;
#ifdef __CUDA_ARCH__
    const float4 v = *reinterpret_cast<const float4*>(from + i * cols + j);
    tile[c * kLongPitch + r] = v.x, tile[(c + 1) * kLongPitch + r] = v.y;
    tile[(c + 2) * kLongPitch + r] = v.z, tile[(c + 3) * kLongPitch + r] = v.w;
#else
    for (int k = 0; k < kVector; ++k) tile[(c + k) * kLongPitch + r] = from[i * cols + j + k];
#endif
  }
}

// Store: thread t (lane L of warp w) writes, for each of its columns c = w, w + 8, … inside the
// source, destination row col0 + c at columns row0 + L + 32k (k < 4, inside `rows`), after
// `epilogue(values, col0 + c)`. Values of rows past the edge go through the epilogue unwritten.
template <class Epilogue>
__host__ __device__ __forceinline__ void store_long_tile(const LongTile& tile, float* __restrict__ to, int64_t rows, int64_t cols, int64_t row0,
                                                         int64_t col0, int t, const Epilogue& epilogue) {
  const int lane = t % kWarp, warp = t / kWarp;
  for (int c = warp; c < kLongCols; c += kLongWarps) {
    const int64_t column = col0 + c;
    if (column >= cols) break;
    float values[kVector];
KBV_UNROLL
    for (int k = 0; k < kVector; ++k) values[k] = tile[c * kLongPitch + lane + kWarp * k];
    epilogue(values, column);
KBV_UNROLL
    for (int k = 0; k < kVector; ++k) {
      const int64_t row = row0 + lane + kWarp * k;
      if (row < rows) to[column * rows + row] = values[k];
    }
  }
}

// The long-row kernel's body: thread t's share of the block's tiles through `tile` (the bench's
// variants run it under other launch bounds, or after staging the block's operands).
template <class Epilogue>
__device__ __forceinline__ void move_long_tiles(LongTile& tile, const float* __restrict__ src, float* __restrict__ dst, int64_t batch, int64_t rows,
                                                int64_t cols, int t, const Epilogue& epilogue) {
  for_each_block_tile<kLongRows, kLongCols>(src, dst, batch, rows, cols, [&](const float* from, float* to, int64_t row0, int64_t col0) {
    load_long_tile(tile, from, rows, cols, row0, col0, t);
    __syncthreads();
    store_long_tile(tile, to, rows, cols, row0, col0, t, epilogue);
    __syncthreads();
  });
}

template <class Epilogue>
__global__ void __launch_bounds__(kLongThreads) batched_transpose_long_kernel(const float* __restrict__ src, float* __restrict__ dst, int64_t batch,
                                                                              int64_t rows, int64_t cols, Epilogue epilogue) {
  __shared__ LongTile tile;
  move_long_tiles(tile, src, dst, batch, rows, cols, static_cast<int>(threadIdx.x), epilogue);
}

// Adds bias[column] to each value; nothing when bias is null: the plain transposes' epilogue
// (batched_transpose.cu) and the first step of the convolution epilogue's (conv_epilogue.cuh).
// Through the wide form the plain transposes map their warps four_lines (WideMapping says why).
struct ColumnBias {
  static constexpr WideMapping kWideMapping = WideMapping::four_lines;
  const float* bias;
  __host__ __device__ __forceinline__ void operator()(float (&values)[kLanes], const int64_t (&columns)[kLanes]) const {
    if (bias == nullptr) return;
KBV_UNROLL
    for (int l = 0; l < kLanes; ++l) values[l] += bias[columns[l]];
  }
  __host__ __device__ __forceinline__ void operator()(float (&values)[kVector], int64_t column) const {
    if (bias == nullptr) return;
    const float b = bias[column];
KBV_UNROLL
    for (int k = 0; k < kVector; ++k) values[k] += b;
  }
};

// The grid for_each_block_tile walks with tiles of kRowSide × kColSide: a block per column tile,
// row tiles and batch entries up to the grid's limits (the loops cover the rest).
template <int kRowSide, int kColSide = kRowSide>
inline dim3 tile_grid(int64_t batch, int64_t rows, int64_t cols) {
  return dim3(static_cast<unsigned>((cols + kColSide - 1) / kColSide),
              static_cast<unsigned>(std::min((rows + kRowSide - 1) / kRowSide, kMaxGridYZ)), static_cast<unsigned>(std::min(batch, kMaxGridYZ)));
}

// The form asked for where it fits (wide_form_fits, long_form_fits), else the 32×32 one.
template <class Epilogue>
void launch(const float* src, float* dst, int64_t batch, int64_t rows, int64_t cols, const Epilogue& epilogue, cudaStream_t stream,
            TransposeForm form) {
  if (batch <= 0 || rows <= 0 || cols <= 0) return;
  if (form == TransposeForm::wide_where_it_fits && wide_form_fits(rows, cols, src, dst)) {
    batched_transpose_wide_kernel<<<tile_grid<kWideTile>(batch, rows, cols), kWideThreads, 0, stream>>>(src, dst, batch, rows, cols, epilogue);
    return;
  }
  if (form == TransposeForm::long_rows_where_it_fits && long_form_fits(cols, src)) {
    batched_transpose_long_kernel<<<tile_grid<kLongRows, kLongCols>(batch, rows, cols), kLongThreads, 0, stream>>>(src, dst, batch, rows, cols,
                                                                                                                   epilogue);
    return;
  }
  batched_transpose_kernel<<<tile_grid<kTile>(batch, rows, cols), dim3(kTile, kTileRowsPerPass), 0, stream>>>(src, dst, batch, rows, cols, epilogue);
}

}  // namespace kbv::ops::baseline::transpose
