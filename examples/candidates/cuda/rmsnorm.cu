// cuda rmsnorm — y = x / sqrt(mean(x², axis) + eps) along dim 1 of [N, F, H, W]: one thread per
// (n, h, w) column walks the F values spaced H·W apart (coalesced across the warp), first for
// the mean square, then to write the output.
#include <cmath>

#include "cuda_common.cuh"

namespace {
constexpr const char* kAxisAttribute = "rms.axis";
constexpr const char* kEpsAttribute = "rms.eps";
constexpr double kDefaultAxis = 1;    // KernelBench L1 #36 normalises the feature dim
constexpr double kDefaultEps = 1e-5;  // and uses eps = 1e-5
constexpr int kThreads = 256;

__global__ void __launch_bounds__(kThreads)
    rms_columns(const float* __restrict__ x, float* __restrict__ y, int64_t outer, int64_t extent,
                int64_t inner, float eps) {
  const int64_t columns = outer * inner;
  const int64_t stride = static_cast<int64_t>(gridDim.x) * kThreads;
  for (int64_t column = static_cast<int64_t>(blockIdx.x) * kThreads + threadIdx.x; column < columns;
       column += stride) {
    const int64_t o = column / inner, i = column % inner;
    const float* in = x + o * extent * inner + i;
    float* out = y + o * extent * inner + i;
    float squares = 0.0f;
    for (int64_t a = 0; a < extent; ++a) squares += in[a * inner] * in[a * inner];
    const float scale = rsqrtf(squares / static_cast<float>(extent) + eps);
    for (int64_t a = 0; a < extent; ++a) out[a * inner] = in[a * inner] * scale;
  }
}
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_CUDA, "rmsnorm_columns")

kbv_status kbv_candidate_run(kbv::Call& call) {
  using namespace cuda_candidate;
  if (!expect_f32(call, 1, 1)) return KBV_STATUS_INVALID_ARGUMENT;
  const kbv::Tensor x = call.input(0);
  const AxisSplit split = split_at_axis(x, call.attribute(kAxisAttribute, kDefaultAxis));
  if (!expect(split.valid && call.output(0).numel() == x.numel(), "rmsnorm axis or output shape invalid"))
    return KBV_STATUS_INVALID_ARGUMENT;
  const int64_t columns = split.outer * split.inner;
  if (columns == 0) return KBV_STATUS_OK;
  const auto eps = static_cast<float>(call.attribute(kEpsAttribute, kDefaultEps));
  rms_columns<<<grid_for(columns, kThreads), kThreads, 0, stream_of(call)>>>(
      x.data<float>(), call.output(0).data<float>(), split.outer, split.extent, split.inner, eps);
  return launch_status("rms_columns");
}
