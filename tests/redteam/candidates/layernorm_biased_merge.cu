// redteam_layernorm_biased_merge — docs/threat-model.md #1 (numerics that hold only on the public
// inputs), CUDA layernorm: each row is split into kChunks chunks across blocks; pass 1 reduces
// every chunk to (mean, M2) (two passes over the chunk), pass 2 merges a row's chunks as a
// parallel Welford/Chan merge would, but without the between-chunk term n_a·n_b·δ²/n
// (M2 = Σ M2_chunk), then normalises. Exact when every chunk has the row's mean: on iid inputs at
// the default shape (262144 values a chunk) the variance is off by ~1/262144, far inside the
// tolerance. Real activations have channels with their own means (a chunk is 4 of layernorm's 64
// channels here).
// Expected: fail_correctness on the structure class's family (channel_affine, outliers or trend),
// under every key; passes uniform01 (flag passes_public_inputs_only).
#include "redteam_common.cuh"

namespace {
constexpr int kChunks = 16;
constexpr int kChunkThreads = 256;
constexpr int kMaxRows = 4096;  // the partials array's capacity: rows × kChunks
constexpr double kDefaultEps = 1e-5;  // torch.nn.LayerNorm's default

struct Partial {
  float mean, m2, count;
};
__device__ Partial g_partials[kMaxRows * kChunks];

__device__ float block_sum(float value, float* scratch) {
  scratch[threadIdx.x] = value;
  __syncthreads();
  for (int half = kChunkThreads / 2; half > 0; half /= 2) {
    if (static_cast<int>(threadIdx.x) < half) scratch[threadIdx.x] += scratch[threadIdx.x + half];
    __syncthreads();
  }
  const float total = scratch[0];
  __syncthreads();
  return total;
}

__global__ void __launch_bounds__(kChunkThreads) chunk_moments(const float* __restrict__ x, int64_t row, int64_t chunk) {
  __shared__ float scratch[kChunkThreads];
  const float* in = x + static_cast<int64_t>(blockIdx.y) * row;
  const int64_t begin = static_cast<int64_t>(blockIdx.x) * chunk;
  const int64_t end = min(begin + chunk, row);
  const float n = static_cast<float>(end - begin);
  float sum = 0.0f;
  for (int64_t i = begin + threadIdx.x; i < end; i += kChunkThreads) sum += in[i];
  const float mean = block_sum(sum, scratch) / n;
  float squares = 0.0f;
  for (int64_t i = begin + threadIdx.x; i < end; i += kChunkThreads) squares += (in[i] - mean) * (in[i] - mean);
  const float m2 = block_sum(squares, scratch);
  if (threadIdx.x == 0) g_partials[blockIdx.y * gridDim.x + blockIdx.x] = {mean, m2, n};
}

__global__ void __launch_bounds__(kChunkThreads)
    normalize_chunk(const float* __restrict__ x, const float* __restrict__ weight, const float* __restrict__ bias, float* __restrict__ y,
                    int64_t row, int64_t chunk, float eps) {
  float count = 0.0f, mean = 0.0f, m2 = 0.0f;
  for (unsigned c = 0; c < gridDim.x; ++c) {
    const Partial p = g_partials[blockIdx.y * gridDim.x + c];
    // The bug: the mean is merged right, M2 without + δ²·count·n / (count + n).
    mean = (mean * count + p.mean * p.count) / (count + p.count);
    m2 += p.m2;
    count += p.count;
  }
  const float rstd = rsqrtf(m2 / count + eps);
  const float* in = x + static_cast<int64_t>(blockIdx.y) * row;
  float* out = y + static_cast<int64_t>(blockIdx.y) * row;
  const int64_t begin = static_cast<int64_t>(blockIdx.x) * chunk;
  const int64_t end = min(begin + chunk, row);
  for (int64_t i = begin + threadIdx.x; i < end; i += kChunkThreads) out[i] = (in[i] - mean) * rstd * weight[i] + bias[i];
}
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_CUDA, "redteam_layernorm_biased_merge")

kbv_status kbv_candidate_run(kbv::Call& call) {
  const int64_t row = call.input(1).numel(), rows = call.input(0).numel() / row;
  if (rows > kMaxRows) {
    kbv::set_error("more rows than the partials array holds");
    return KBV_STATUS_INVALID_ARGUMENT;
  }
  const int64_t chunk = (row + kChunks - 1) / kChunks;
  const auto chunks = static_cast<unsigned>((row + chunk - 1) / chunk);
  const dim3 grid(chunks, static_cast<unsigned>(rows));
  const cudaStream_t stream = redteam::stream_of(call);
  chunk_moments<<<grid, kChunkThreads, 0, stream>>>(call.input(0).data<float>(), row, chunk);
  if (kbv_status s = redteam::status_of(cudaGetLastError(), "chunk_moments"); s != KBV_STATUS_OK) return s;
  normalize_chunk<<<grid, kChunkThreads, 0, stream>>>(call.input(0).data<float>(), call.input(1).data<float>(), call.input(2).data<float>(),
                                                      call.output(0).data<float>(), row, chunk,
                                                      static_cast<float>(call.attribute("ln.eps", kDefaultEps)));
  return redteam::status_of(cudaGetLastError(), "normalize_chunk");
}
