// bench/cuda_timing/spin_kernel.cu — a kernel that lasts a known time: one thread spinning on
// the globaltimer, so its length does not depend on the SM clock.
#include <cuda_runtime_api.h>

#include "common/cuda_error.hpp"

namespace kbv::bench {

namespace {
__global__ void kbv_bench_spin(unsigned long long nanoseconds) {
  unsigned long long start, now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (now - start < nanoseconds);
}
}  // namespace

void launch_spin(unsigned long long nanoseconds, cudaStream_t stream) {
  kbv_bench_spin<<<1, 1, 0, stream>>>(nanoseconds);
  cuda::check_launch("kbv_bench_spin");
}

}  // namespace kbv::bench
