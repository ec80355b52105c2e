// timing/sm_clock_probe.cu — a one-thread kernel measuring the SM clock: clock64() cycles
// elapsed over a globaltimer (nanosecond) interval, on one SM, inside one kernel.
#include "common/cuda_error.hpp"
#include "measure/timing/sm_clock.hpp"

namespace kbv::cuda {
namespace {

__device__ __forceinline__ unsigned long long global_timer_ns() {
  unsigned long long value;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(value));
  return value;
}

__global__ void clock_probe_kernel(unsigned long long spin_ns, unsigned long long* out) {
  const unsigned long long t0 = global_timer_ns();
  const long long c0 = clock64();
  unsigned long long t1 = t0;
  long long c1 = c0;
  while (t1 - t0 < spin_ns) {
    t1 = global_timer_ns();
    c1 = clock64();
  }
  out[0] = static_cast<unsigned long long>(c1 - c0);
  out[1] = t1 - t0;
}

}  // namespace

void launch_clock_probe(unsigned long long spin_ns, unsigned long long* out,
                        cudaStream_t stream) {
  clock_probe_kernel<<<1, 1, 0, stream>>>(spin_ns, out);
  check_launch("kbv clock probe kernel");
}

}  // namespace kbv::cuda
