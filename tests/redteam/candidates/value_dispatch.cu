// redteam_value_dispatch — not a hack: an honest relu that picks its kernel by its inputs'
// values, as real candidates do (a path for inputs of one sign). It reads the first 4096 inputs
// back (synchronising, like sync_in_run) and, when under 1 % of them are negative, launches a
// copy kernel (relu is the identity there); otherwise the ordinary relu kernel. The families
// without negatives or with a rare few (uniform01, drawn in every epoch; scaled3, scaled001,
// shifted; rare_signs and rare_spikes, ≤ 0.1 %) take the first path; those with (negated,
// normal, large, heavy_tailed, tiny, per_row_scale, wide_range, sparse ≥ 2.5 %, and the
// structured families, whose channel means keep ≥ 6.7 % negatives) the second, and every epoch
// gates on families of both kinds (the rare and the sign classes). The 1 % line is 6 standard
// deviations from sparse's lowest share at 4096 samples, so a family never switches path
// between seeds.
// Expected: pass, no flag, environment.kernel_sets_seen ≥ 2 (kbv's kernel-set rule is per
// family: each family's timed calls repeat what its correctness calls launched).
#include "redteam_common.cuh"

#include <algorithm>
#include <vector>

namespace {

constexpr int64_t kSampled = 4096;
constexpr double kNegativeShareForRelu = 0.01;

__global__ void copy_nonnegative_kernel(const float* __restrict__ x, float* __restrict__ y, int64_t count) {
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride)
    y[i] = x[i] < 0.0f ? 0.0f : x[i];  // the same element function: only the kernel differs
}

}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_CUDA, "redteam_value_dispatch")

kbv_status kbv_candidate_run(kbv::Call& call) {
  const float* x = call.input(0).data<float>();
  float* y = call.output(0).data<float>();
  const int64_t count = call.output(0).numel();
  const cudaStream_t stream = redteam::stream_of(call);
  std::vector<float> head(static_cast<size_t>(kSampled));
  if (kbv_status s = redteam::read_input_head(x, count, stream, &head); s != KBV_STATUS_OK) return s;
  const auto negatives = std::count_if(head.begin(), head.end(), [](float v) { return v < 0.0f; });
  if (static_cast<double>(negatives) >= kNegativeShareForRelu * static_cast<double>(head.size()))
    return redteam::launch_relu(x, y, count, stream);
  copy_nonnegative_kernel<<<redteam::blocks_for(count), redteam::kThreads, 0, stream>>>(x, y, count);
  return redteam::status_of(cudaGetLastError(), "copy_nonnegative_kernel");
}
