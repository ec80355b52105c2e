// bench/cuda_timing/device_compare.cu — the largest difference between two device buffers, for
// the benches that check a variant's output against the library's on the device.
#include <cstring>

#include "common/cuda_error.hpp"
#include "device_compare.hpp"

namespace kbv::bench {
namespace {

// The largest |a − b| (as an ordered bit pattern: non-negative floats order as their bits).
__global__ void max_difference_kernel(const float* __restrict__ a, const float* __restrict__ b, size_t count, unsigned* largest) {
  unsigned mine = 0;
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < count; i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    const float d = fabsf(a[i] - b[i]);
    mine = max(mine, d == d ? __float_as_uint(d) : 0x7f800000u);  // a NaN counts as infinitely far
  }
  atomicMax(largest, mine);
}

}  // namespace

float max_abs_difference(const float* a, const float* b, size_t count, cudaStream_t stream) {
  unsigned* largest = nullptr;
  cuda::check(cudaMallocAsync(reinterpret_cast<void**>(&largest), sizeof(unsigned), stream), "cudaMallocAsync");
  cuda::check(cudaMemsetAsync(largest, 0, sizeof(unsigned), stream), "cudaMemsetAsync");
  max_difference_kernel<<<1024, 256, 0, stream>>>(a, b, count, largest);
  cuda::check_launch("max difference kernel");
  unsigned bits = 0;
  cuda::check(cudaMemcpyAsync(&bits, largest, sizeof bits, cudaMemcpyDeviceToHost, stream), "cudaMemcpyAsync");
  cuda::check(cudaFreeAsync(largest, stream), "cudaFreeAsync");
  cuda::check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  float value = 0;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

}  // namespace kbv::bench
