// redteam_common.cuh — what the CUDA red-team candidates share: an honest relu kernel and its
// launch, and CUDA error reporting, so each candidate differs from an honest one only in the
// behaviour it is written to show.
#pragma once

#include <kbv/plugin.hpp>

#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <vector>

namespace redteam {

constexpr int kThreads = 256;
constexpr int64_t kMaxBlocks = 65536;

__global__ void relu_kernel(const float* __restrict__ x, float* __restrict__ y, int64_t count) {
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride)
    y[i] = x[i] < 0.0f ? 0.0f : x[i];
}

inline unsigned blocks_for(int64_t count) {
  const int64_t blocks = (count + kThreads - 1) / kThreads;
  return static_cast<unsigned>(blocks < 1 ? 1 : (blocks > kMaxBlocks ? kMaxBlocks : blocks));
}

inline kbv_status status_of(cudaError_t error, const char* what) {
  if (error == cudaSuccess) return KBV_STATUS_OK;
  kbv::set_error(std::string(what) + ": " + cudaGetErrorString(error));
  return KBV_STATUS_DEVICE_ERROR;
}

inline kbv_status launch_relu(const float* x, float* y, int64_t count, cudaStream_t stream) {
  relu_kernel<<<blocks_for(count), kThreads, 0, stream>>>(x, y, count);
  return status_of(cudaGetLastError(), "relu_kernel");
}

// The candidate's own non-blocking stream (the "other stream" of the stream-injection
// candidates), created at the first call and kept for the process.
inline kbv_status private_stream(cudaStream_t* stream) {
  if (*stream != nullptr) return KBV_STATUS_OK;
  return status_of(cudaStreamCreateWithFlags(stream, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
}

inline cudaStream_t stream_of(const kbv::Call& call) { return static_cast<cudaStream_t>(call.stream()); }

// The first min(count, head->size()) inputs, copied back to the host after the work queued on
// `stream` (synchronising it): how the candidates that choose their path by the inputs' values
// look at them. `head` is resized to what was read.
inline kbv_status read_input_head(const float* x, int64_t count, cudaStream_t stream, std::vector<float>* head) {
  if (static_cast<int64_t>(head->size()) > count) head->resize(static_cast<size_t>(count));
  if (kbv_status s = status_of(cudaMemcpyAsync(head->data(), x, head->size() * sizeof(float), cudaMemcpyDeviceToHost, stream),
                               "cudaMemcpyAsync (input head)");
      s != KBV_STATUS_OK)
    return s;
  return status_of(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
}

inline void log(const std::string& message) {
  constexpr int32_t kWarning = 2;
  const kbv_host_api* api = kbv::detail::host_api();
  if (api != nullptr && api->log != nullptr) api->log(api->host_context, kWarning, message.c_str());
}

}  // namespace redteam
