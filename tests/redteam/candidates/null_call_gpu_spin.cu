// redteam_null_call_gpu_spin — docs/threat-model.md, pattern 6 (timer patching) prepared through
// the null call, CUDA relu: a hook on the worker's own recvmsg (its GOT slot) launches a kernel
// that spins for about a millisecond on a private stream whenever a null call arrives; the relu
// itself is honest. The null call's trace window waited for the spinner before it opened, so the
// null call kbv subtracts from each round trip grew by the spin (a trusted time that much
// shorter, for a tampered clock to agree with: with a patched timer the kernel-span check would
// convict first, so this candidate leaves the timer alone); the spinner ended before the window's
// start, and the trace dropped it.
// Expected: hack_suspected, hack_pattern "stream_injection": the null call's trace reports the
// spinner as work between calls (and the null calls before the load bound the later ones).
#include "got_patch.hpp"
#include "redteam_common.cuh"

#include <sys/socket.h>

#include <string_view>

namespace {

constexpr long long kSpinCycles = 2'000'000;  // ≈ 1 ms at the H200's ~1.98 GHz SM clock

__global__ void spin(long long cycles) {
  const long long start = clock64();
  while (clock64() - start < cycles) {
  }
}

using ReceiveMessage = ssize_t (*)(int, msghdr*, int);
ReceiveMessage g_receive = nullptr;
cudaStream_t g_private = nullptr;

ssize_t receive_and_spin(int fd, msghdr* message, int flags) {
  const ssize_t got = g_receive(fd, message, flags);
  if (got <= 0 || message->msg_iovlen < 1) return got;
  const std::string_view text(static_cast<const char*>(message->msg_iov[0].iov_base), static_cast<size_t>(got));
  if (text.find("null_call") != std::string_view::npos) spin<<<1, 1, 0, g_private>>>(kSpinCycles);
  return got;
}

}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_CUDA, "redteam_null_call_gpu_spin")

kbv_status kbv_candidate_run(kbv::Call& call) {
  if (kbv_status s = redteam::private_stream(&g_private); s != KBV_STATUS_OK) return s;
  if (g_receive == nullptr) redteam::patch_got({"recvmsg", reinterpret_cast<void*>(&receive_and_spin), reinterpret_cast<void**>(&g_receive)});
  return redteam::launch_relu(call.input(0).data<float>(), call.output(0).data<float>(), call.output(0).numel(), redteam::stream_of(call));
}
