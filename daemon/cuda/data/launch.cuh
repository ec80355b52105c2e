// data/launch.cuh — launch geometry and block-wide reductions shared by the data kernels.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

namespace kbv::cuda::detail {

// Threads per block for the memory-bound kernels: 256 keeps occupancy high on sm_90 while
// leaving registers for the fp64 math (CUDA C++ Best Practices Guide, "Thread and Block
// Heuristics": multiples of 32, 128–256 a good start).
constexpr int kBlockThreads = 256;
// Grid-stride kernels launch at most this many blocks: 132 SMs × 32 resident blocks on an H200
// rounds up to 4096; more only adds scheduling overhead. A fixed number (not read from the
// device) keeps every reduction's summation order the same on every GPU.
constexpr int64_t kMaxGridBlocks = 4096;

inline unsigned grid_for(int64_t elements, int threads = kBlockThreads) {
  const int64_t blocks = (elements + threads - 1) / threads;
  return static_cast<unsigned>(std::clamp<int64_t>(blocks, 1, kMaxGridBlocks));
}

__device__ inline int64_t global_thread_index() {
  return static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
}
__device__ inline int64_t grid_stride() { return static_cast<int64_t>(blockDim.x) * gridDim.x; }

// Reduces one value per thread of the block to thread 0's return value, in a fixed order
// (deterministic). `Combine` is a binary functor; threads with no data pass its identity.
// Every thread of the block must call it; blockDim.x must be a multiple of 32; `scratch` holds
// at least 32 elements. The result is valid in thread 0 only.
template <class T, class Combine>
__device__ T block_reduce(T value, Combine combine, T* scratch) {
  const unsigned lane = threadIdx.x % 32;
  const unsigned warp = threadIdx.x / 32;
  for (int offset = 16; offset > 0; offset /= 2) {
    value = combine(value, __shfl_down_sync(0xffffffffu, value, offset));
  }
  __syncthreads();  // scratch may still be read by a previous call
  if (lane == 0) scratch[warp] = value;
  __syncthreads();
  const unsigned warps = (blockDim.x + 31) / 32;
  if (warp == 0) {
    value = lane < warps ? scratch[lane] : scratch[0];
    // Tree over the `warps` partials: a lane combines only partners that hold one of them.
    for (int offset = 16; offset > 0; offset /= 2) {
      const T other = __shfl_down_sync(0xffffffffu, value, offset);
      if (lane + offset < warps) value = combine(value, other);
    }
  }
  return value;
}

struct SumOp {
  template <class T>
  __device__ T operator()(T a, T b) const { return a + b; }
};
struct MaxOp {
  template <class T>
  __device__ T operator()(T a, T b) const { return a > b ? a : b; }
};
struct MinOp {
  template <class T>
  __device__ T operator()(T a, T b) const { return a < b ? a : b; }
};

// Broadcasts thread 0's value to the whole block.
template <class T>
__device__ T block_broadcast(T value, T* slot) {
  __syncthreads();
  if (threadIdx.x == 0) *slot = value;
  __syncthreads();
  return *slot;
}

}  // namespace kbv::cuda::detail
