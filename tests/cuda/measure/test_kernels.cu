// tests/cuda/measure/test_kernels.cu — kernels of known duration for the timer and CUPTI tests.
#include "common/cuda_error.hpp"
#include "gpu_test_support.hpp"

namespace kbv::cuda::measure_testing {
namespace {

__global__ void kbv_test_spin_cycles(long long cycles) {
  const long long start = clock64();
  while (clock64() - start < cycles) {
  }
}

__global__ void kbv_test_spin_ns(unsigned long long nanoseconds) {
  unsigned long long start, now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (now - start < nanoseconds);
}

}  // namespace

void launch_spin_cycles(long long cycles, cudaStream_t stream) {
  kbv_test_spin_cycles<<<1, 1, 0, stream>>>(cycles);
  check_launch("kbv_test_spin_cycles");
}

void launch_spin_ns(unsigned long long nanoseconds, cudaStream_t stream) {
  kbv_test_spin_ns<<<1, 1, 0, stream>>>(nanoseconds);
  check_launch("kbv_test_spin_ns");
}

}  // namespace kbv::cuda::measure_testing
