// redteam_alloc_async_layernorm — not a hack: an honest Welford LayerNorm that splits each row
// across blocks and keeps the chunks' (count, mean, M2) in a scratch buffer of rows × chunks ×
// 12 B taken with cudaMallocAsync and returned with cudaFreeAsync on the call's stream (the
// candidate of the report that first crashed kbv's worker: "launch of kbv_trace_marker: out of
// memory"). Pass 1 reduces every chunk; pass 2 merges a row's chunks with Chan et al.'s
// parallel update (the between-chunk term included) and normalises the block's chunk.
// Expected: pass, no flag; memory.candidate_peak_bytes > 0.
#include "redteam_common.cuh"

#include <algorithm>

namespace {

constexpr const char* kEpsAttribute = "ln.eps";
constexpr double kDefaultEps = 1e-5;  // torch.nn.LayerNorm's default
// Chunks per row: about this many blocks in all, no chunk below kMinChunk values, at most
// kThreads chunks (pass 2 merges a row's chunks one per thread).
constexpr int64_t kTargetBlocks = 1024;
constexpr int64_t kMinChunk = 8192;
constexpr int64_t kMaxGridY = 65535;

struct Moments {
  float count, mean, m2;
};

__device__ Moments merge(Moments a, Moments b) {
  const float count = a.count + b.count;
  if (count == 0.0f) return a;
  const float delta = b.mean - a.mean;
  const float share_b = b.count / count;
  return {count, a.mean + delta * share_b, a.m2 + b.m2 + delta * delta * a.count * share_b};
}

// Every thread's value merged in a fixed tree order; the result is in slot 0.
__device__ Moments block_merge(Moments mine, Moments* shared) {
  shared[threadIdx.x] = mine;
  __syncthreads();
  for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) shared[threadIdx.x] = merge(shared[threadIdx.x], shared[threadIdx.x + half]);
    __syncthreads();
  }
  return shared[0];
}

__global__ void chunk_moments(const float* __restrict__ x, Moments* __restrict__ partials, int64_t row_length, int64_t chunk,
                              int64_t first_row) {
  __shared__ Moments shared[redteam::kThreads];
  const float* row = x + (first_row + blockIdx.y) * row_length;
  const int64_t begin = blockIdx.x * chunk, end = min(begin + chunk, row_length);
  Moments mine{0.0f, 0.0f, 0.0f};
  for (int64_t i = begin + threadIdx.x; i < end; i += blockDim.x) {  // Welford, one value at a time
    mine.count += 1.0f;
    const float delta = row[i] - mine.mean;
    mine.mean += delta / mine.count;
    mine.m2 += delta * (row[i] - mine.mean);
  }
  const Moments total = block_merge(mine, shared);
  if (threadIdx.x == 0) partials[blockIdx.y * gridDim.x + blockIdx.x] = total;
}

__global__ void normalize_chunk(const float* __restrict__ x, const float* __restrict__ weight, const float* __restrict__ bias,
                                const Moments* __restrict__ partials, float* __restrict__ y, int64_t row_length, int64_t chunk,
                                int64_t first_row, float eps) {
  __shared__ Moments shared[redteam::kThreads];
  const Moments mine = threadIdx.x < gridDim.x ? partials[blockIdx.y * gridDim.x + threadIdx.x] : Moments{0.0f, 0.0f, 0.0f};
  const Moments row_moments = block_merge(mine, shared);
  const float mean = row_moments.mean;
  const float rstd = rsqrtf(row_moments.m2 / row_moments.count + eps);
  const int64_t row = first_row + blockIdx.y;
  const int64_t begin = blockIdx.x * chunk, end = min(begin + chunk, row_length);
  for (int64_t i = begin + threadIdx.x; i < end; i += blockDim.x)
    y[row * row_length + i] = (x[row * row_length + i] - mean) * rstd * weight[i] + bias[i];
}

}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_CUDA, "redteam_alloc_async_layernorm")

kbv_status kbv_candidate_run(kbv::Call& call) {
  const int64_t total = call.input(0).numel();
  const int64_t row_length = call.input(1).numel();  // weight covers exactly the normalised dims
  if (call.num_inputs() != 3 || row_length <= 0 || total % row_length != 0 || call.input(2).numel() != row_length) {
    kbv::set_error("expected layernorm's x, weight and bias, weight and bias covering x's trailing dims");
    return KBV_STATUS_INVALID_ARGUMENT;
  }
  const int64_t rows = total / row_length;
  int64_t chunks = std::clamp<int64_t>((kTargetBlocks + rows - 1) / rows, 1, redteam::kThreads);
  chunks = std::min(chunks, std::max<int64_t>(1, row_length / kMinChunk));
  const int64_t chunk = (row_length + chunks - 1) / chunks;
  chunks = (row_length + chunk - 1) / chunk;
  const int64_t rows_per_launch = std::min(rows, kMaxGridY);
  const cudaStream_t stream = redteam::stream_of(call);
  void* scratch = nullptr;
  if (kbv_status s = redteam::status_of(cudaMallocAsync(&scratch, static_cast<size_t>(rows_per_launch * chunks) * sizeof(Moments), stream),
                                        "cudaMallocAsync (chunk moments)");
      s != KBV_STATUS_OK)
    return s;
  auto* partials = static_cast<Moments*>(scratch);
  const auto eps = static_cast<float>(call.attribute(kEpsAttribute, kDefaultEps));
  kbv_status status = KBV_STATUS_OK;
  for (int64_t first = 0; first < rows && status == KBV_STATUS_OK; first += rows_per_launch) {
    const dim3 grid(static_cast<unsigned>(chunks), static_cast<unsigned>(std::min(rows_per_launch, rows - first)));
    chunk_moments<<<grid, redteam::kThreads, 0, stream>>>(call.input(0).data<float>(), partials, row_length, chunk, first);
    status = redteam::status_of(cudaGetLastError(), "chunk_moments");
    if (status != KBV_STATUS_OK) break;
    normalize_chunk<<<grid, redteam::kThreads, 0, stream>>>(call.input(0).data<float>(), call.input(1).data<float>(),
                                                            call.input(2).data<float>(), partials, call.output(0).data<float>(),
                                                            row_length, chunk, first, eps);
    status = redteam::status_of(cudaGetLastError(), "normalize_chunk");
  }
  const kbv_status freed = redteam::status_of(cudaFreeAsync(scratch, stream), "cudaFreeAsync");
  return status != KBV_STATUS_OK ? status : freed;
}
