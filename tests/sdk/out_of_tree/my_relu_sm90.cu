// tests/sdk/out_of_tree/my_relu_sm90.cu — an out-of-tree author's CUDA ReLU. It uses a C++20 concept and refuses to
// compile for any architecture below sm_90, so building it proves kbv_add_candidate() gives .cu
// files C++20 and Hopper by default.
#include <kbv/plugin.hpp>

#include <algorithm>
#include <concepts>
#include <cuda_runtime.h>
#include <string>

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
#error "compiled for an architecture below sm_90 (kbv_add_candidate builds for sm_90 unless told otherwise)"
#endif

template <class T>
concept Real = std::floating_point<T>;  // C++20: fails to parse under -std=c++17

template <Real T>
__global__ void relu(const T* x, T* y, int64_t n) {
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n; i += static_cast<int64_t>(gridDim.x) * blockDim.x)
    y[i] = x[i] > T(0) ? x[i] : T(0);
}

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_CUDA, "my_relu_sm90")
kbv_status kbv_candidate_run(kbv::Call& call) {
  const int64_t n = call.output("y").numel();
  constexpr int kThreads = 256;
  constexpr int64_t kMaxBlocks = 132 * 8;  // a grid-stride loop: 8 blocks per SM of an H200 (132 SMs)
  const int blocks = static_cast<int>(std::min<int64_t>((n + kThreads - 1) / kThreads, kMaxBlocks));
  relu<<<blocks, kThreads, 0, static_cast<cudaStream_t>(call.stream())>>>(call.input("x").data<float>(), call.output("y").data<float>(), n);
  if (const cudaError_t error = cudaGetLastError(); error != cudaSuccess) {
    kbv::set_error(std::string("relu launch: ") + cudaGetErrorString(error));
    return KBV_STATUS_DEVICE_ERROR;
  }
  return KBV_STATUS_OK;
}
