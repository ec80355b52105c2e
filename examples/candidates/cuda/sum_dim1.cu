// cuda sum_dim1 (tiled) — y[o, 1, i] = Σ_a x[o, a, i]: a block owns 32 adjacent columns i of one
// o; its 8 thread rows split the summed axis (coalesced 128-byte reads per warp), then combine
// their partial sums through shared memory in a fixed order (deterministic).
#include "cuda_common.cuh"

namespace {
constexpr const char* kAxisAttribute = "sum.axis";
constexpr double kDefaultAxis = 1;  // KernelBench L1 #47 sums over dim 1
constexpr int kColumns = 32;        // one warp wide
constexpr int kSlices = 8;          // thread rows sharing the summed axis
constexpr int64_t kMaxGridY = 65535;

__global__ void __launch_bounds__(kColumns* kSlices)
    sum_axis(const float* __restrict__ x, float* __restrict__ y, int64_t extent, int64_t inner, int64_t first_outer) {
  __shared__ float partial[kSlices][kColumns];
  const int64_t o = first_outer + blockIdx.y;
  const int64_t i = static_cast<int64_t>(blockIdx.x) * kColumns + threadIdx.x;
  float sum = 0.0f;
  if (i < inner) {
    const float* in = x + o * extent * inner + i;
    for (int64_t a = threadIdx.y; a < extent; a += kSlices) sum += in[a * inner];
  }
  partial[threadIdx.y][threadIdx.x] = sum;
  __syncthreads();
  if (threadIdx.y == 0 && i < inner) {
    float total = 0.0f;
#pragma unroll
    for (int s = 0; s < kSlices; ++s) total += partial[s][threadIdx.x];
    y[o * inner + i] = total;
  }
}
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_CUDA, "sum_dim1_tiled")

kbv_status kbv_candidate_run(kbv::Call& call) {
  using namespace cuda_candidate;
  if (!expect_f32(call, 1, 1)) return KBV_STATUS_INVALID_ARGUMENT;
  const kbv::Tensor x = call.input(0);
  const AxisSplit split = split_at_axis(x, call.attribute(kAxisAttribute, kDefaultAxis));
  if (!expect(split.valid && call.output(0).numel() == split.outer * split.inner, "sum axis or output shape invalid"))
    return KBV_STATUS_INVALID_ARGUMENT;
  const auto column_blocks = static_cast<unsigned>((split.inner + kColumns - 1) / kColumns);
  for (int64_t first = 0; first < split.outer; first += kMaxGridY) {
    const dim3 grid(column_blocks, static_cast<unsigned>(std::min(kMaxGridY, split.outer - first)));
    sum_axis<<<grid, dim3(kColumns, kSlices), 0, stream_of(call)>>>(x.data<float>(), call.output(0).data<float>(),
                                                                    split.extent, split.inner, first);
    if (kbv_status s = launch_status("sum_axis"); s != KBV_STATUS_OK) return s;
  }
  return KBV_STATUS_OK;
}
