// half_gemm.cuh — the precision downgrade the CUDA bf16 and fp16 red-team candidates share
// (docs/threat-model.md, pattern 15): a tensor-core GEMM that converts both fp32 operands to a 16-bit
// type (wmma m16n16k16, fp32 accumulation), twice TF32's throughput, with an elementwise epilogue
// (the problem's bias and activation) applied to each fp32 result. bfloat16 keeps a quarter of
// TF32's mantissa; IEEE half keeps all of it and ends at 65504.
#pragma once

#include "redteam_common.cuh"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>

namespace redteam::half_gemm {

constexpr int kTile = 32;         // a block computes 32×32 of C with 4 warps of 16×16
constexpr int kStepK = 16;        // the bf16 wmma shape's K
constexpr int kHalfPad = 8;       // keeps leading dimensions multiples of 8 (wmma, 16-bit types)
constexpr int kFloatPad = 4;
constexpr int kBlockThreads = 128;

// A float rounded to nearest in the 16-bit type (a float past fp16's range becomes inf).
template <class Half> __device__ Half rounded(float value);
template <> __device__ inline __nv_bfloat16 rounded<__nv_bfloat16>(float value) { return __float2bfloat16(value); }
template <> __device__ inline __half rounded<__half>(float value) { return __float2half(value); }

// C[m,n] = epilogue(Σ_k half(A[m,k])·half(B[k,n]), n) with A row-major [M,K] and B either row-major
// [K,N] or, kWeightRows, a Linear's weight [N,K] (B = weightᵀ).
template <class Half, bool kWeightRows, class Epilogue>
__global__ void __launch_bounds__(kBlockThreads)
    gemm(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int64_t m, int64_t n, int64_t k,
         Epilogue epilogue) {
  using namespace nvcuda;
  __shared__ alignas(32) Half a_tile[kTile][kStepK + kHalfPad];
  __shared__ alignas(32) Half b_tile[kStepK][kTile + kHalfPad];
  __shared__ alignas(32) float c_tile[kTile][kTile + kFloatPad];
  const int64_t m0 = static_cast<int64_t>(blockIdx.y) * kTile, n0 = static_cast<int64_t>(blockIdx.x) * kTile;
  const int warp = static_cast<int>(threadIdx.x) / 32;
  const int warp_m = (warp / 2) * 16, warp_n = (warp % 2) * 16;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  for (int64_t k0 = 0; k0 < k; k0 += kStepK) {
    for (int i = static_cast<int>(threadIdx.x); i < kTile * kStepK; i += kBlockThreads) {
      const int r = i / kStepK, col = i % kStepK;
      const int64_t row = m0 + r, kk = k0 + col;
      a_tile[r][col] = rounded<Half>(row < m && kk < k ? a[row * k + kk] : 0.0f);
    }
    for (int i = static_cast<int>(threadIdx.x); i < kStepK * kTile; i += kBlockThreads) {
      const int r = i / kTile, col = i % kTile;
      const int64_t kk = k0 + r, column = n0 + col;
      const bool inside = kk < k && column < n;
      b_tile[r][col] = rounded<Half>(inside ? (kWeightRows ? b[column * k + kk] : b[kk * n + column]) : 0.0f);
    }
    __syncthreads();
    wmma::fragment<wmma::matrix_a, 16, 16, 16, Half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, Half, wmma::row_major> fb;
    wmma::load_matrix_sync(fa, &a_tile[warp_m][0], kStepK + kHalfPad);
    wmma::load_matrix_sync(fb, &b_tile[0][warp_n], kTile + kHalfPad);
    wmma::mma_sync(acc, fa, fb, acc);
    __syncthreads();
  }
  wmma::store_matrix_sync(&c_tile[warp_m][warp_n], acc, kTile + kFloatPad, wmma::mem_row_major);
  __syncthreads();
  for (int i = static_cast<int>(threadIdx.x); i < kTile * kTile; i += kBlockThreads) {
    const int r = i / kTile, col = i % kTile;
    if (m0 + r < m && n0 + col < n) c[(m0 + r) * n + n0 + col] = epilogue(c_tile[r][col], n0 + col);
  }
}

// The epilogue of a plain GEMM.
struct Unchanged {
  __device__ float operator()(float value, int64_t) const { return value; }
};

template <class Half, bool kWeightRows, class Epilogue>
kbv_status launch(kbv::Call& call, const float* a, const float* b, int64_t m, int64_t n, int64_t k, Epilogue epilogue,
                  const char* name) {
  const dim3 grid(static_cast<unsigned>((n + kTile - 1) / kTile), static_cast<unsigned>((m + kTile - 1) / kTile));
  gemm<Half, kWeightRows><<<grid, kBlockThreads, 0, stream_of(call)>>>(a, b, call.output(0).data<float>(), m, n, k, epilogue);
  return status_of(cudaGetLastError(), name);
}

}  // namespace redteam::half_gemm
