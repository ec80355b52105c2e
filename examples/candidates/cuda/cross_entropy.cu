// cuda cross_entropy (online) — one block per row: each thread keeps a running (max, Σexp)
// pair over its strided logits (float4 loads when the row allows), merged across the block;
// thread 0 writes the row's lse − x[target] into a stream-ordered scratch buffer, and one block
// then sums the rows in a fixed order (deterministic) and divides by their count. The int64
// targets are read as the ABI passes them.
#include <cmath>

#include "cuda_common.cuh"
#include "reductions.cuh"

namespace {
using cuda_candidate::absorb1;
using cuda_candidate::absorb4;
using cuda_candidate::CombineMaxSum;
using cuda_candidate::MaxSum;

constexpr int kThreads = 512;
constexpr int kSumThreads = 1024;
constexpr int64_t kMaxRows = 2147483647;  // gridDim.x limit

template <bool kVector>
__global__ void __launch_bounds__(kThreads) row_losses(const float* __restrict__ logits, const int64_t* __restrict__ targets,
                                                       float* __restrict__ losses, int64_t classes) {
  const float* row = logits + static_cast<int64_t>(blockIdx.x) * classes;
  MaxSum state{-INFINITY, 0.0f};
  if constexpr (kVector) {
    const auto* row4 = reinterpret_cast<const float4*>(row);
    for (int64_t i = threadIdx.x; i < classes / 4; i += kThreads) absorb4(state, row4[i]);
  } else {
    for (int64_t i = threadIdx.x; i < classes; i += kThreads) absorb1(state, row[i]);
  }
  const MaxSum total = cuda_candidate::block_allreduce(state, CombineMaxSum{}, MaxSum{-INFINITY, 0.0f});
  if (threadIdx.x == 0) losses[blockIdx.x] = total.max + logf(total.sum) - row[targets[blockIdx.x]];
}

__global__ void __launch_bounds__(kSumThreads) mean_of(const float* __restrict__ losses, float* __restrict__ out, int64_t rows) {
  float sum = 0.0f;
  for (int64_t i = threadIdx.x; i < rows; i += kSumThreads) sum += losses[i];
  const float total = cuda_candidate::block_allreduce(sum, [](float a, float b) { return a + b; }, 0.0f);
  if (threadIdx.x == 0) out[0] = total / static_cast<float>(rows);
}
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_CUDA, "cross_entropy_online")

kbv_status kbv_candidate_run(kbv::Call& call) {
  using namespace cuda_candidate;
  if (!expect(call.num_inputs() == 2 && call.num_outputs() == 1, "expected predictions, targets and one output"))
    return KBV_STATUS_INVALID_ARGUMENT;
  const kbv::Tensor logits = call.input("predictions");
  const kbv::Tensor targets = call.input("targets");
  if (!expect(logits.rank() == 2 && targets.rank() == 1 && targets.dim(0) == logits.dim(0) && call.output(0).numel() == 1,
              "expected predictions [N, C], targets [N] and a one-element loss"))
    return KBV_STATUS_INVALID_ARGUMENT;
  const int64_t rows = logits.dim(0), classes = logits.dim(1);
  if (!expect(rows <= kMaxRows, "too many rows for one grid")) return KBV_STATUS_INVALID_ARGUMENT;
  const float* x = logits.data<float>();
  const int64_t* target = targets.data<int64_t>();  // throws (INVALID_ARGUMENT) unless int64
  float* out = call.output(0).data<float>();
  const cudaStream_t stream = stream_of(call);
  float* losses = nullptr;
  if (cudaMallocAsync(reinterpret_cast<void**>(&losses), static_cast<size_t>(rows) * sizeof(float), stream) != cudaSuccess)
    return launch_status("cudaMallocAsync (row losses)");
  const auto grid = static_cast<unsigned>(rows);
  if (classes % 4 == 0 && aligned16(x))
    row_losses<true><<<grid, kThreads, 0, stream>>>(x, target, losses, classes);
  else
    row_losses<false><<<grid, kThreads, 0, stream>>>(x, target, losses, classes);
  if (const kbv_status status = launch_status("row_losses"); status != KBV_STATUS_OK) return status;
  mean_of<<<1, kSumThreads, 0, stream>>>(losses, out, rows);
  if (const kbv_status status = launch_status("mean_of"); status != KBV_STATUS_OK) return status;
  if (cudaFreeAsync(losses, stream) != cudaSuccess) return launch_status("cudaFreeAsync (row losses)");
  return KBV_STATUS_OK;
}
