// timing/launch_gate.cu — the gate kernel (spins on a host-written flag, bounded by the GPU's
// global timer) and its pinned flags.
#include "measure/timing/launch_gate.hpp"

#include <atomic>

#include "common/cuda_error.hpp"
#include "common/stream.hpp"

namespace kbv::cuda {

namespace {

constexpr int kPending = 0;
constexpr int kReleased = 1;
constexpr int kTimedOut = 2;
constexpr double kNanosecondsPerSecond = 1e9;

__device__ unsigned long long global_timer_ns() {
  unsigned long long now = 0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  return now;
}

}  // namespace

}  // namespace kbv::cuda

// extern "C" keeps the name unmangled, so traces show exactly kLaunchGateKernelName.
extern "C" __global__ void kbv_launch_gate(kbv::cuda::LaunchGate::Flags* flags, unsigned long long timeout_ns) {
  volatile kbv::cuda::LaunchGate::Flags* shared = flags;
  const unsigned long long start = kbv::cuda::global_timer_ns();
  int outcome = kbv::cuda::kReleased;
  while (shared->release == kbv::cuda::kPending) {
    if (kbv::cuda::global_timer_ns() - start > timeout_ns) {
      outcome = kbv::cuda::kTimedOut;
      break;
    }
  }
  shared->outcome = outcome;
  __threadfence_system();
}

namespace kbv::cuda {

void LaunchGate::FreeHost::operator()(Flags* flags) const { (void)cudaFreeHost(flags); }

LaunchGate::LaunchGate() {
  void* raw = nullptr;
  check(cudaHostAlloc(&raw, sizeof(Flags), cudaHostAllocMapped), "cudaHostAlloc(launch gate)");
  flags_.reset(static_cast<Flags*>(raw));
  flags_->release = kReleased;
  flags_->outcome = kReleased;
  void* mapped = nullptr;
  check(cudaHostGetDevicePointer(&mapped, raw, 0), "cudaHostGetDevicePointer(launch gate)");
  device_flags_ = static_cast<Flags*>(mapped);
  // Load and run the gate kernel once, on a stream of its own, released at once.
  const Stream warm;
  hold(warm.get());
  release();
  warm.synchronize();
}

LaunchGate::~LaunchGate() = default;

void LaunchGate::hold(cudaStream_t stream) {
  std::atomic_ref<int>(flags_->release).store(kPending, std::memory_order_seq_cst);
  std::atomic_ref<int>(flags_->outcome).store(kPending, std::memory_order_seq_cst);
  constexpr auto kTimeoutNs = static_cast<unsigned long long>(kTimeoutSeconds * kNanosecondsPerSecond);
  kbv_launch_gate<<<1, 1, 0, stream>>>(device_flags_, kTimeoutNs);
  check_launch(kLaunchGateKernelName);
}

void LaunchGate::release() { std::atomic_ref<int>(flags_->release).store(kReleased, std::memory_order_seq_cst); }

bool LaunchGate::timed_out() const {
  return std::atomic_ref<int>(flags_->outcome).load(std::memory_order_seq_cst) == kTimedOut;
}

bool LaunchGate::settle() {
  const bool timed_out_now = timed_out();
  if (timed_out_now) {
    ++timeouts_;
    ++in_a_row_;
  } else {
    in_a_row_ = 0;
  }
  return timed_out_now;
}

std::string LaunchGate::state() const {
  if (!active())
    return "off after " + std::to_string(kMaxTimeoutsInARow) +
           " calls in a row timed out behind it: the timed work waits for the device (e.g. a synchronising run())";
  if (timeouts_ == 0) return "on";
  return "on (" + std::to_string(timeouts_) +
         " call(s) timed out behind it, e.g. while CUDA lazily loaded a kernel at its first launch)";
}

}  // namespace kbv::cuda
