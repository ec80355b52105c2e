// elementwise.cuh — a float4-vectorised, grid-stride elementwise kernel for the honest relu and
// gelu candidates: 16-byte loads and stores when both buffers allow them, a scalar tail.
#pragma once

#include "cuda_common.cuh"

namespace cuda_candidate {

constexpr int kElementwiseThreads = 256;

template <class Function>
__global__ void __launch_bounds__(kElementwiseThreads)
    elementwise_vec4(const float* __restrict__ x, float* __restrict__ y, int64_t count, Function f) {
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  const int64_t first = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const int64_t vectors = count / 4;
  const auto* x4 = reinterpret_cast<const float4*>(x);
  auto* y4 = reinterpret_cast<float4*>(y);
  for (int64_t i = first; i < vectors; i += stride) {
    const float4 v = x4[i];
    y4[i] = make_float4(f(v.x), f(v.y), f(v.z), f(v.w));
  }
  for (int64_t i = vectors * 4 + first; i < count; i += stride) y[i] = f(x[i]);
}

template <class Function>
__global__ void __launch_bounds__(kElementwiseThreads)
    elementwise_scalar(const float* __restrict__ x, float* __restrict__ y, int64_t count, Function f) {
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride)
    y[i] = f(x[i]);
}

// y = f(x) for the call's one input and one output, on the call's stream.
template <class Function>
kbv_status run_elementwise(kbv::Call& call, Function f, const char* name) {
  if (!expect_f32(call, 1, 1)) return KBV_STATUS_INVALID_ARGUMENT;
  const int64_t count = call.output(0).numel();
  if (!expect(call.input(0).numel() == count, "x and y differ in size")) return KBV_STATUS_INVALID_ARGUMENT;
  if (count == 0) return KBV_STATUS_OK;
  const float* x = call.input(0).data<float>();
  float* y = call.output(0).data<float>();
  if (aligned16(x) && aligned16(y)) {
    const unsigned blocks = grid_for(count / 4 + 1, kElementwiseThreads);
    elementwise_vec4<<<blocks, kElementwiseThreads, 0, stream_of(call)>>>(x, y, count, f);
  } else {
    const unsigned blocks = grid_for(count, kElementwiseThreads);
    elementwise_scalar<<<blocks, kElementwiseThreads, 0, stream_of(call)>>>(x, y, count, f);
  }
  return launch_status(name);
}

}  // namespace cuda_candidate
