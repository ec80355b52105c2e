// data/poison.cu — kernels that write and count the poison bit pattern.
#include "common/cuda_error.hpp"
#include "common/device_buffer.hpp"
#include "data/launch.cuh"
#include "data/poison.hpp"
#include "verify/compare.hpp"

namespace kbv::cuda {
namespace {

__global__ void poison_kernel(uint32_t* data, int64_t count, uint32_t bits) {
  for (int64_t i = detail::global_thread_index(); i < count; i += detail::grid_stride()) data[i] = bits;
}

// Integer sums are associative, so one atomic add per block gives the same count every time.
__global__ void count_kernel(const uint32_t* data, int64_t count, uint32_t bits,
                             unsigned long long* total) {
  __shared__ unsigned long long scratch[32];
  unsigned long long local = 0;
  for (int64_t i = detail::global_thread_index(); i < count; i += detail::grid_stride()) {
    local += data[i] == bits ? 1u : 0u;
  }
  const unsigned long long block_total = detail::block_reduce(local, detail::SumOp{}, scratch);
  if (threadIdx.x == 0 && block_total != 0) atomicAdd(total, block_total);
}

}  // namespace

void poison_on_device(float* data, int64_t count, cudaStream_t stream) {
  if (count <= 0) return;
  poison_kernel<<<detail::grid_for(count), detail::kBlockThreads, 0, stream>>>(
      reinterpret_cast<uint32_t*>(data), count, kPoisonBits);
  check_launch("poison_kernel");
}

int64_t count_poison_on_device(const float* data, int64_t count, cudaStream_t stream) {
  if (count <= 0) return 0;
  auto total = DeviceBuffer<unsigned long long>::on_stream(1, stream);
  check(cudaMemsetAsync(total.get(), 0, sizeof(unsigned long long), stream), "cudaMemsetAsync");
  count_kernel<<<detail::grid_for(count), detail::kBlockThreads, 0, stream>>>(
      reinterpret_cast<const uint32_t*>(data), count, kPoisonBits, total.get());
  check_launch("count_kernel");
  unsigned long long host_total = 0;
  check(cudaMemcpyAsync(&host_total, total.get(), sizeof host_total, cudaMemcpyDeviceToHost, stream),
        "cudaMemcpyAsync (poison count)");
  check(cudaStreamSynchronize(stream), "cudaStreamSynchronize (poison count)");
  return static_cast<int64_t>(host_total);
}

}  // namespace kbv::cuda
