// cuda layernorm (Welford) — normalises each sample over its trailing dims (those of weight).
// Rows are long (4M values) and few (16), so each row is split into chunks across blocks:
// pass 1 reduces every chunk to (count, mean, M2) with warp shuffles and writes it to a small
// static device array; pass 2 merges a row's chunk moments (Chan/Welford) and normalises its
// chunk with weight and bias. No allocation: the partials array lives in the module.
#include <cmath>

#include "cuda_common.cuh"
#include "reductions.cuh"

namespace {
using cuda_candidate::Moments;

constexpr const char* kEpsAttribute = "ln.eps";
constexpr double kDefaultEps = 1e-5;  // torch.nn.LayerNorm's default
constexpr int kThreads = 256;
// Enough blocks per launch to fill an H200 (132 SMs) several times over.
constexpr int64_t kTargetBlocks = 1024;
// A chunk below this many values is not worth a block of its own.
constexpr int64_t kMinChunk = 8192;
// Capacity of the static partials array (12 bytes each); rows beyond it go in later launches.
constexpr int64_t kMaxPartials = 8192;
constexpr int64_t kMaxGridY = 65535;

__device__ Moments g_partials[kMaxPartials];

__global__ void __launch_bounds__(kThreads)
    chunk_moments(const float* __restrict__ x, int64_t row_length, int64_t chunk, int64_t first_row) {
  const int64_t row = first_row + blockIdx.y;
  const int64_t begin = blockIdx.x * chunk;
  const int64_t end = min(begin + chunk, row_length);
  const float* in = x + row * row_length;
  cuda_candidate::ShiftedSums sums;
  for (int64_t i = begin + threadIdx.x; i < end; i += kThreads) sums.add(in[i]);
  const Moments total = cuda_candidate::block_allreduce(sums.moments(), cuda_candidate::CombineMoments{},
                                                        Moments{0.0f, 0.0f, 0.0f});
  if (threadIdx.x == 0) g_partials[blockIdx.y * gridDim.x + blockIdx.x] = total;
}

__global__ void __launch_bounds__(kThreads)
    normalize_chunk(const float* __restrict__ x, const float* __restrict__ weight, const float* __restrict__ bias,
                    float* __restrict__ y, int64_t row_length, int64_t chunk, int64_t first_row, float eps) {
  const Moments mine = threadIdx.x < gridDim.x ? g_partials[blockIdx.y * gridDim.x + threadIdx.x]
                                               : Moments{0.0f, 0.0f, 0.0f};
  // gridDim.x ≤ kThreads partials per row (the host guarantees it), so one value per thread.
  const Moments row_moments =
      cuda_candidate::block_allreduce(mine, cuda_candidate::CombineMoments{}, Moments{0.0f, 0.0f, 0.0f});
  const float mean = row_moments.mean;
  const float rstd = rsqrtf(row_moments.m2 / row_moments.count + eps);
  const int64_t row = first_row + blockIdx.y;
  const int64_t begin = blockIdx.x * chunk;
  const int64_t end = min(begin + chunk, row_length);
  const float* in = x + row * row_length;
  float* out = y + row * row_length;
  for (int64_t i = begin + threadIdx.x; i < end; i += kThreads) out[i] = (in[i] - mean) * rstd * weight[i] + bias[i];
}
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_CUDA, "layernorm_welford")

kbv_status kbv_candidate_run(kbv::Call& call) {
  using namespace cuda_candidate;
  if (!expect_f32(call, 3, 1)) return KBV_STATUS_INVALID_ARGUMENT;
  const int64_t total = call.input(0).numel();
  const int64_t row_length = call.input(1).numel();  // weight covers exactly the normalised dims
  if (!expect(row_length > 0 && total % row_length == 0 && call.input(2).numel() == row_length &&
                  call.output(0).numel() == total,
              "weight/bias do not match the trailing dims of x"))
    return KBV_STATUS_INVALID_ARGUMENT;
  const int64_t rows = total / row_length;
  if (rows == 0) return KBV_STATUS_OK;
  // Chunks per row: enough blocks in total, none too small, at most one partial per thread.
  int64_t chunks = std::clamp<int64_t>((kTargetBlocks + rows - 1) / rows, 1, kThreads);
  chunks = std::min(chunks, std::max<int64_t>(1, row_length / kMinChunk));
  const int64_t chunk = (row_length + chunks - 1) / chunks;
  chunks = (row_length + chunk - 1) / chunk;
  const int64_t rows_per_launch = std::min(kMaxPartials / chunks, kMaxGridY);
  const auto eps = static_cast<float>(call.attribute(kEpsAttribute, kDefaultEps));
  const float* x = call.input(0).data<float>();
  float* y = call.output(0).data<float>();
  for (int64_t first = 0; first < rows; first += rows_per_launch) {
    const dim3 grid(static_cast<unsigned>(chunks), static_cast<unsigned>(std::min(rows_per_launch, rows - first)));
    chunk_moments<<<grid, kThreads, 0, stream_of(call)>>>(x, row_length, chunk, first);
    if (kbv_status s = launch_status("chunk_moments"); s != KBV_STATUS_OK) return s;
    normalize_chunk<<<grid, kThreads, 0, stream_of(call)>>>(x, call.input(1).data<float>(),
                                                            call.input(2).data<float>(), y, row_length,
                                                            chunk, first, eps);
    if (kbv_status s = launch_status("normalize_chunk"); s != KBV_STATUS_OK) return s;
  }
  return KBV_STATUS_OK;
}
