// redteam_precision_bf16_timing — docs/threat-model.md, pattern 15 (precision downgrade) on timed
// calls only, CUDA matmul_square: one tiled fp32 GEMM kernel whose argument says whether to round
// both operands to bfloat16 first; calls on the first call's output slot (the correctness slot)
// pass false, every other call (the timing slots) true. One kernel name in both phases, so the
// kernel-set check sees nothing; the timed outputs' recheck against the TF32 baseline at twice
// the tolerance passes bf16 (rel-L2 ≈ 2.3e-3 against 4e-3).
// Expected: fail_correctness: a timed call at a keyed position gets the fp64 reference at the
// problem's tolerance and the precision check (eval/full_check_schedule.hpp).
#include "redteam_common.cuh"

#include <cuda_bf16.h>

namespace {

constexpr int kTile = 16;

__device__ float operand(float value, bool round) { return round ? __bfloat162float(__float2bfloat16(value)) : value; }

// C[m,n] = A[m,k] · B[k,n], row-major, one 16×16 tile of C per block.
__global__ void tiled_gemm(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int64_t m, int64_t n, int64_t k,
                           bool round_operands) {
  __shared__ float a_tile[kTile][kTile];
  __shared__ float b_tile[kTile][kTile];
  const int64_t row = static_cast<int64_t>(blockIdx.y) * kTile + threadIdx.y;
  const int64_t col = static_cast<int64_t>(blockIdx.x) * kTile + threadIdx.x;
  float sum = 0.0f;
  for (int64_t t = 0; t < k; t += kTile) {
    const int64_t a_col = t + threadIdx.x, b_row = t + threadIdx.y;
    a_tile[threadIdx.y][threadIdx.x] = row < m && a_col < k ? operand(a[row * k + a_col], round_operands) : 0.0f;
    b_tile[threadIdx.y][threadIdx.x] = b_row < k && col < n ? operand(b[b_row * n + col], round_operands) : 0.0f;
    __syncthreads();
    for (int i = 0; i < kTile; ++i) sum += a_tile[threadIdx.y][i] * b_tile[i][threadIdx.x];
    __syncthreads();
  }
  if (row < m && col < n) c[row * n + col] = sum;
}

float* g_correctness_output = nullptr;

}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_CUDA, "redteam_precision_bf16_timing")

kbv_status kbv_candidate_run(kbv::Call& call) {
  const kbv::Tensor a = call.input(0), b = call.input(1), c = call.output(0);
  const int64_t m = a.dim(0u), k = a.dim(1u), n = b.dim(1u);
  float* out = c.data<float>();
  if (g_correctness_output == nullptr) g_correctness_output = out;
  const dim3 grid(static_cast<unsigned>((n + kTile - 1) / kTile), static_cast<unsigned>((m + kTile - 1) / kTile));
  tiled_gemm<<<grid, dim3(kTile, kTile), 0, redteam::stream_of(call)>>>(a.data<float>(), b.data<float>(), out, m, n, k, out != g_correctness_output);
  return redteam::status_of(cudaGetLastError(), "tiled_gemm");
}
