// redteam_precision_bf16 — docs/threat-model.md, pattern 15 (precision downgrade), CUDA matmul_square: a
// tensor-core GEMM that converts both fp32 operands to bfloat16 (wmma m16n16k16, fp32
// accumulation) — twice TF32's throughput, a quarter of its mantissa.
// Expected: fail_correctness on a hidden zero-mean family: relative L2 error ≈ 2.3e-3 (8× TF32's)
// against matmul_square's rel_l2 tolerance of 2e-3; it can pass the public U[0,1) family,
// where the rounding errors average out against a large positive output.
#include "redteam_common.cuh"

#include <cuda_bf16.h>
#include <mma.h>

namespace {
using namespace nvcuda;

constexpr int kTile = 32;         // a block computes 32×32 of C with 4 warps of 16×16
constexpr int kStepK = 16;        // the bf16 wmma shape's K
constexpr int kBf16Pad = 8;       // keeps leading dimensions multiples of 8 (wmma, bf16)
constexpr int kFloatPad = 4;
constexpr int kBlockThreads = 128;

__global__ void __launch_bounds__(kBlockThreads)
    gemm_bf16(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int64_t m, int64_t n,
              int64_t k) {
  __shared__ alignas(32) __nv_bfloat16 a_tile[kTile][kStepK + kBf16Pad];
  __shared__ alignas(32) __nv_bfloat16 b_tile[kStepK][kTile + kBf16Pad];
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
      a_tile[r][col] = __float2bfloat16(row < m && kk < k ? a[row * k + kk] : 0.0f);
    }
    for (int i = static_cast<int>(threadIdx.x); i < kStepK * kTile; i += kBlockThreads) {
      const int r = i / kTile, col = i % kTile;
      const int64_t kk = k0 + r, column = n0 + col;
      b_tile[r][col] = __float2bfloat16(kk < k && column < n ? b[kk * n + column] : 0.0f);
    }
    __syncthreads();
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::row_major> fb;
    wmma::load_matrix_sync(fa, &a_tile[warp_m][0], kStepK + kBf16Pad);
    wmma::load_matrix_sync(fb, &b_tile[0][warp_n], kTile + kBf16Pad);
    wmma::mma_sync(acc, fa, fb, acc);
    __syncthreads();
  }
  wmma::store_matrix_sync(&c_tile[warp_m][warp_n], acc, kTile + kFloatPad, wmma::mem_row_major);
  __syncthreads();
  for (int i = static_cast<int>(threadIdx.x); i < kTile * kTile; i += kBlockThreads) {
    const int r = i / kTile, col = i % kTile;
    if (m0 + r < m && n0 + col < n) c[(m0 + r) * n + n0 + col] = c_tile[r][col];
  }
}
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_CUDA, "redteam_precision_bf16")

kbv_status kbv_candidate_run(kbv::Call& call) {
  const kbv::Tensor a = call.input(0), b = call.input(1);
  const int64_t m = a.dim(0u), k = a.dim(1u), n = b.dim(1u);
  const dim3 grid(static_cast<unsigned>((n + kTile - 1) / kTile), static_cast<unsigned>((m + kTile - 1) / kTile));
  gemm_bf16<<<grid, kBlockThreads, 0, redteam::stream_of(call)>>>(a.data<float>(), b.data<float>(),
                                                                  call.output(0).data<float>(), m, n, k);
  return redteam::status_of(cudaGetLastError(), "gemm_bf16");
}
