// tf32_gemm.cuh — a tiled TF32 tensor-core GEMM (nvcuda::wmma, m16n16k8) shared by the honest
// matmul, bmm, linear-with-epilogue and implicit-GEMM convolution candidates.
//
// C[M,N] = A[M,K] · B[K,N] per batch entry. A block computes a 64×64 tile of C with 4 warps
// (2×2 warp tiles of 32×32, each 2×2 wmma fragments) and walks K in steps of 32: the next
// A/B tiles are fetched from global memory into registers while the tensor cores work on the
// current ones in shared memory. Out-of-range elements load as zero, so every M, N and K works.
// A Problem type says how to read A and B and where each result goes:
//   int64_t m, n, k; int batches;
//   static constexpr bool kBContiguousInK;  // B(k, n) and B(k+1, n) adjacent in memory
//   __device__ float a(int batch, int64_t row, int64_t kk) const;
//   __device__ float b(int batch, int64_t kk, int64_t col) const;
//   __device__ void store(int batch, int64_t row, int64_t col, float accumulator) const;
// A Problem whose B is read by column (kBContiguousInK false: a thread keeps one column for the
// whole K loop) may also say what it can work out once per column:
//   __device__ Column b_column(int batch, int64_t col) const;   // any type; col may be ≥ n
//   __device__ float b_at(int batch, int64_t kk, const Column&) const;  // B(kk, col), kk < k
//   __device__ bool column_in_range(const Column&) const;       // col < n
// The implicit-GEMM convolution does: its column is an output pixel, whose image and position
// cost three integer divisions that b() would repeat for every element.
#pragma once

#include <mma.h>

#include <concepts>
#include <cstdint>

#include "cuda_common.cuh"

namespace tf32_gemm {

constexpr int kBlockM = 64, kBlockN = 64, kBlockK = 32;
constexpr int kThreads = 128;  // 4 warps
constexpr int kWarpTile = 32;  // each warp: 32×32 of C
constexpr int kFragM = 16, kFragN = 16, kFragK = 8;  // the TF32 wmma shape
constexpr int kFragsPerWarp = kWarpTile / kFragM;    // 2×2 fragments per warp
// Row padding in floats: keeps every fragment pointer 32-byte aligned (wmma's requirement) and
// every leading dimension a multiple of 4 floats, while staggering shared-memory banks.
constexpr int kPad = 4;
constexpr int kAPerThread = kBlockM * kBlockK / kThreads;
constexpr int kBPerThread = kBlockK * kBlockN / kThreads;
constexpr int64_t kMaxGridY = 65535, kMaxGridZ = 65535;

template <class Problem>
concept ReadsBByColumn = requires(const Problem p, int batch, int64_t index) {
  p.b_column(batch, index);
  { p.b_at(batch, index, p.b_column(batch, index)) } -> std::convertible_to<float>;
  { p.column_in_range(p.b_column(batch, index)) } -> std::convertible_to<bool>;
};

struct alignas(128) Tiles {
  float a[kBlockM][kBlockK + kPad];  // A tile, row-major (m, k)
  float b[kBlockK][kBlockN + kPad];  // B tile, row-major (k, n)
  float c[kBlockM][kBlockN + kPad];  // accumulators staged for the epilogue
};

// Which tile element the thread's i-th A value is: k fastest, so a warp reads 32 adjacent k
// of one row of a row-major A.
__device__ inline int a_row(int i) { return static_cast<int>(threadIdx.x) / kBlockK + i * (kThreads / kBlockK); }
__device__ inline int a_col() { return static_cast<int>(threadIdx.x) % kBlockK; }
// B: n fastest when adjacent n are adjacent in memory (row-major B, im2col), k fastest when B
// is a transposed weight W[N,K].
template <bool kContiguousInK>
__device__ inline int b_row(int i) {
  return kContiguousInK ? static_cast<int>(threadIdx.x) % kBlockK
                        : static_cast<int>(threadIdx.x) / kBlockN + i * (kThreads / kBlockN);
}
template <bool kContiguousInK>
__device__ inline int b_col(int i) {
  return kContiguousInK ? static_cast<int>(threadIdx.x) / kBlockK + i * (kThreads / kBlockK)
                        : static_cast<int>(threadIdx.x) % kBlockN;
}

template <class Problem>
__global__ void __launch_bounds__(kThreads) gemm_kernel(const Problem p) {
  using namespace nvcuda;
  __shared__ Tiles tiles;
  const int batch = static_cast<int>(blockIdx.z);
  const int64_t m0 = static_cast<int64_t>(blockIdx.y) * kBlockM;
  const int64_t n0 = static_cast<int64_t>(blockIdx.x) * kBlockN;
  const int warp = static_cast<int>(threadIdx.x) / 32;
  const int warp_m = (warp / 2) * kWarpTile, warp_n = (warp % 2) * kWarpTile;
  constexpr bool kInK = Problem::kBContiguousInK;

  float a_next[kAPerThread], b_next[kBPerThread];
  constexpr bool kByColumn = !kInK && ReadsBByColumn<Problem>;
  // With kInK false, b_col() does not depend on i: one column per thread for the whole loop.
  [[maybe_unused]] const auto column = [&] {
    if constexpr (kByColumn) return p.b_column(batch, n0 + b_col<kInK>(0));
    else return 0;
  }();
  auto fetch = [&](int64_t k0) {
#pragma unroll
    for (int i = 0; i < kAPerThread; ++i) {
      const int64_t row = m0 + a_row(i), kk = k0 + a_col();
      a_next[i] = row < p.m && kk < p.k ? p.a(batch, row, kk) : 0.0f;
    }
#pragma unroll
    for (int i = 0; i < kBPerThread; ++i) {
      const int64_t kk = k0 + b_row<kInK>(i);
      if constexpr (kByColumn) {
        b_next[i] = kk < p.k && p.column_in_range(column) ? p.b_at(batch, kk, column) : 0.0f;
      } else {
        const int64_t col = n0 + b_col<kInK>(i);
        b_next[i] = kk < p.k && col < p.n ? p.b(batch, kk, col) : 0.0f;
      }
    }
  };

  wmma::fragment<wmma::accumulator, kFragM, kFragN, kFragK, float> acc[kFragsPerWarp][kFragsPerWarp];
#pragma unroll
  for (int i = 0; i < kFragsPerWarp; ++i)
#pragma unroll
    for (int j = 0; j < kFragsPerWarp; ++j) wmma::fill_fragment(acc[i][j], 0.0f);

  fetch(0);
  for (int64_t k0 = 0; k0 < p.k; k0 += kBlockK) {
    __syncthreads();  // every warp is done reading the previous tiles
#pragma unroll
    for (int i = 0; i < kAPerThread; ++i) tiles.a[a_row(i)][a_col()] = wmma::__float_to_tf32(a_next[i]);
#pragma unroll
    for (int i = 0; i < kBPerThread; ++i) tiles.b[b_row<kInK>(i)][b_col<kInK>(i)] = wmma::__float_to_tf32(b_next[i]);
    __syncthreads();
    if (k0 + kBlockK < p.k) fetch(k0 + kBlockK);  // global loads in flight during the MMAs
#pragma unroll
    for (int kk = 0; kk < kBlockK; kk += kFragK) {
      wmma::fragment<wmma::matrix_a, kFragM, kFragN, kFragK, wmma::precision::tf32, wmma::row_major> a[kFragsPerWarp];
      wmma::fragment<wmma::matrix_b, kFragM, kFragN, kFragK, wmma::precision::tf32, wmma::row_major> b[kFragsPerWarp];
#pragma unroll
      for (int i = 0; i < kFragsPerWarp; ++i)
        wmma::load_matrix_sync(a[i], &tiles.a[warp_m + i * kFragM][kk], kBlockK + kPad);
#pragma unroll
      for (int j = 0; j < kFragsPerWarp; ++j)
        wmma::load_matrix_sync(b[j], &tiles.b[kk][warp_n + j * kFragN], kBlockN + kPad);
#pragma unroll
      for (int i = 0; i < kFragsPerWarp; ++i)
#pragma unroll
        for (int j = 0; j < kFragsPerWarp; ++j) wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
    }
  }

  // Epilogue through shared memory: fragment element order is opaque, so stage the tile and
  // let consecutive threads store consecutive columns (coalesced, with bounds checks).
#pragma unroll
  for (int i = 0; i < kFragsPerWarp; ++i)
#pragma unroll
    for (int j = 0; j < kFragsPerWarp; ++j)
      wmma::store_matrix_sync(&tiles.c[warp_m + i * kFragM][warp_n + j * kFragN], acc[i][j], kBlockN + kPad,
                              wmma::mem_row_major);
  __syncthreads();
  for (int index = static_cast<int>(threadIdx.x); index < kBlockM * kBlockN; index += kThreads) {
    const int r = index / kBlockN, c = index % kBlockN;
    const int64_t row = m0 + r, col = n0 + c;
    if (row < p.m && col < p.n) p.store(batch, row, col, tiles.c[r][c]);
  }
}

// Launches the GEMM for `p` on `stream`; reports grid limits and launch errors.
template <class Problem>
kbv_status launch(const Problem& p, cudaStream_t stream, const char* name) {
  if (p.m == 0 || p.n == 0 || p.batches == 0) return KBV_STATUS_OK;
  const int64_t tiles_n = (p.n + kBlockN - 1) / kBlockN, tiles_m = (p.m + kBlockM - 1) / kBlockM;
  if (!cuda_candidate::expect(tiles_n <= INT32_MAX && tiles_m <= kMaxGridY && p.batches <= kMaxGridZ,
                              std::string(name) + ": problem too large for one grid"))
    return KBV_STATUS_INVALID_ARGUMENT;
  const dim3 grid(static_cast<unsigned>(tiles_n), static_cast<unsigned>(tiles_m), static_cast<unsigned>(p.batches));
  gemm_kernel<Problem><<<grid, kThreads, 0, stream>>>(p);
  return cuda_candidate::launch_status(name);
}

// Row-major batched matmul: c[b] = a[b] · b[b] with a[b] M×K, b[b] K×N (batch stride 0 = shared).
struct Matmul {
  static constexpr bool kBContiguousInK = false;
  const float* a_data;
  const float* b_data;
  float* c_data;
  int64_t m, n, k;
  int batches;
  __device__ float a(int batch, int64_t row, int64_t kk) const { return a_data[(batch * m + row) * k + kk]; }
  __device__ float b(int batch, int64_t kk, int64_t col) const { return b_data[(batch * k + kk) * n + col]; }
  __device__ void store(int batch, int64_t row, int64_t col, float v) const { c_data[(batch * m + row) * n + col] = v; }
};

// torch.nn.Linear with a fused epilogue: y[m, n] = epilogue(x[m,:] · w[n,:] + bias[n]).
template <class Epilogue>
struct Linear {
  static constexpr bool kBContiguousInK = true;
  const float* x;
  const float* w;
  const float* bias;
  float* y;
  int64_t m, n, k;
  int batches;
  Epilogue epilogue;
  __device__ float a(int, int64_t row, int64_t kk) const { return x[row * k + kk]; }
  __device__ float b(int, int64_t kk, int64_t col) const { return w[col * k + kk]; }
  __device__ void store(int, int64_t row, int64_t col, float v) const { y[row * n + col] = epilogue(v + bias[col]); }
};

}  // namespace tf32_gemm
