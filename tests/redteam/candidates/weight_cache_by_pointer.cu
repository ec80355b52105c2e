// redteam_weight_cache_by_pointer — docs/threat-model.md, pattern 11 (caching / replay), CUDA
// gemm_bias_gelu, aimed at the timing slots' shared parameters (eval/arena_layout.hpp): keeps a
// device copy of the weight per weight address ("prepacked" once) and computes from that copy on
// every later call at the same address, except at the first address it is given (the
// correctness slot's, whose trials rewrite the weight in place and would catch it at once).
// Expected: fail_correctness: every timed sample writes fresh weights at the one address the
// timing slots share, and the timed outputs' recheck against the TF32 baseline finds the stale
// copy's results.
#include "redteam_common.cuh"

#include <map>

namespace {

constexpr float kInvSqrt2 = 0.70710678118654752440f;

// y[m, n] = gelu(x[m, :] · weight[n, :] + bias[n]), one thread per output.
__global__ void linear_gelu(const float* __restrict__ x, const float* __restrict__ weight, const float* __restrict__ bias,
                            float* __restrict__ y, int64_t m, int64_t n, int64_t k) {
  const int64_t index = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (index >= m * n) return;
  const int64_t row = index / n, col = index % n;
  float sum = bias[col];
  for (int64_t i = 0; i < k; ++i) sum += x[row * k + i] * weight[col * k + i];
  y[index] = 0.5f * sum * (1.0f + erff(sum * kInvSqrt2));
}

const float* g_first_weight = nullptr;
std::map<const float*, float*> g_prepacked;  // weight address -> the candidate's copy (kept for the process)

}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_CUDA, "redteam_weight_cache_by_pointer")

kbv_status kbv_candidate_run(kbv::Call& call) {
  const kbv::Tensor x = call.input(0), w = call.input(1);
  const int64_t m = x.dim(0u), k = x.dim(1u), n = w.dim(0u);
  const cudaStream_t stream = redteam::stream_of(call);
  const float* weight = w.data<float>();
  if (g_first_weight == nullptr) g_first_weight = weight;
  if (weight != g_first_weight) {
    auto copy = g_prepacked.find(weight);
    if (copy == g_prepacked.end()) {
      float* packed = nullptr;
      const size_t bytes = static_cast<size_t>(n * k) * sizeof(float);
      if (const kbv_status status = redteam::status_of(cudaMalloc(&packed, bytes), "cudaMalloc"); status != KBV_STATUS_OK) return status;
      if (const kbv_status status = redteam::status_of(cudaMemcpyAsync(packed, weight, bytes, cudaMemcpyDeviceToDevice, stream), "cudaMemcpyAsync");
          status != KBV_STATUS_OK)
        return status;
      copy = g_prepacked.emplace(weight, packed).first;
    }
    weight = copy->second;
  }
  const int64_t outputs = m * n;
  linear_gelu<<<static_cast<unsigned>((outputs + redteam::kThreads - 1) / redteam::kThreads), redteam::kThreads, 0, stream>>>(
      x.data<float>(), weight, call.input(2).data<float>(), call.output(0).data<float>(), m, n, k);
  return redteam::status_of(cudaGetLastError(), "linear_gelu");
}
