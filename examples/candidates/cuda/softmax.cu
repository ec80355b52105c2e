// cuda softmax (online) — one block per row: each thread keeps a running (max, Σexp) pair over
// its strided elements (float4 loads when the row allows), pairs merge by warp shuffles and
// then across warps; a second pass writes exp(x − max) / Σ. Rows along the last axis only.
#include <cmath>

#include "cuda_common.cuh"
#include "reductions.cuh"

namespace {
constexpr const char* kAxisAttribute = "softmax.axis";
constexpr double kDefaultAxis = 1;  // the problem's softmax over dim 1 of x[B, D]
constexpr int kThreads = 512;
constexpr int kMaxRows = 2147483647;  // gridDim.x limit

using cuda_candidate::absorb1;
using cuda_candidate::absorb4;
using cuda_candidate::CombineMaxSum;
using cuda_candidate::MaxSum;

template <bool kVector>
__global__ void __launch_bounds__(kThreads) softmax_rows(const float* __restrict__ x, float* __restrict__ y,
                                                         int64_t length) {
  const float* in = x + static_cast<int64_t>(blockIdx.x) * length;
  float* out = y + static_cast<int64_t>(blockIdx.x) * length;
  MaxSum state{-INFINITY, 0.0f};
  if constexpr (kVector) {
    const auto* in4 = reinterpret_cast<const float4*>(in);
    for (int64_t i = threadIdx.x; i < length / 4; i += kThreads) absorb4(state, in4[i]);
  } else {
    for (int64_t i = threadIdx.x; i < length; i += kThreads) absorb1(state, in[i]);
  }
  const MaxSum row = cuda_candidate::block_allreduce(state, CombineMaxSum{}, MaxSum{-INFINITY, 0.0f});
  const float inv_sum = 1.0f / row.sum;
  if constexpr (kVector) {
    const auto* in4 = reinterpret_cast<const float4*>(in);
    auto* out4 = reinterpret_cast<float4*>(out);
    for (int64_t i = threadIdx.x; i < length / 4; i += kThreads) {
      const float4 v = in4[i];
      out4[i] = make_float4(expf(v.x - row.max) * inv_sum, expf(v.y - row.max) * inv_sum,
                            expf(v.z - row.max) * inv_sum, expf(v.w - row.max) * inv_sum);
    }
  } else {
    for (int64_t i = threadIdx.x; i < length; i += kThreads) out[i] = expf(in[i] - row.max) * inv_sum;
  }
}
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_CUDA, "softmax_online")

kbv_status kbv_candidate_run(kbv::Call& call) {
  using namespace cuda_candidate;
  if (!expect_f32(call, 1, 1)) return KBV_STATUS_INVALID_ARGUMENT;
  const kbv::Tensor x = call.input(0);
  const AxisSplit split = split_at_axis(x, call.attribute(kAxisAttribute, kDefaultAxis));
  if (!expect(split.valid && call.output(0).numel() == x.numel(), "softmax axis or output shape invalid"))
    return KBV_STATUS_INVALID_ARGUMENT;
  if (split.inner != 1) {
    kbv::set_error("softmax_online handles the last axis only");
    return KBV_STATUS_UNSUPPORTED;
  }
  const int64_t rows = split.outer;
  if (!expect(rows <= kMaxRows, "too many rows for one grid")) return KBV_STATUS_INVALID_ARGUMENT;
  if (rows == 0) return KBV_STATUS_OK;
  const float* in = x.data<float>();
  float* out = call.output(0).data<float>();
  const bool vector = split.extent % 4 == 0 && aligned16(in) && aligned16(out);
  const auto grid = static_cast<unsigned>(rows);
  if (vector)
    softmax_rows<true><<<grid, kThreads, 0, stream_of(call)>>>(in, out, split.extent);
  else
    softmax_rows<false><<<grid, kThreads, 0, stream_of(call)>>>(in, out, split.extent);
  return launch_status("softmax_rows");
}
