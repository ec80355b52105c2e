// redteam_wake_ping_precompute — docs/threat-model.md, pattern 11 (caching / precomputation), host
// matmul_square: the evaluator pings the worker before each timed call. A hook on the worker's
// recvmsg (GOT) computes, on every such ping, the product of every timing slot's current inputs
// (their pointers learnt from earlier calls) into private buffers; the timed run() then only
// copies the buffer of its slot. When the ping came after the sample's inputs were written, the
// copy was right and the call looked ~50x faster than the product; kbv now pings before it
// writes them, and the worker stays stopped until its call, so the buffers hold products of the
// slot's previous inputs.
// Expected: fail_correctness (a timed call's output is wrong).
#include "got_patch.hpp"
#include "redteam_common.hpp"

#include <sys/socket.h>

#include <cstring>
#include <map>
#include <string_view>
#include <vector>

namespace {

struct Slot {
  const float* a = nullptr;
  const float* b = nullptr;
  int64_t m = 0, k = 0, n = 0;
  std::vector<float> product;
  bool fresh = false;  // computed on the latest ping, not used yet
};

using ReceiveMessage = ssize_t (*)(int, msghdr*, int);
ReceiveMessage g_receive = nullptr;
std::map<float*, Slot> g_slots;  // by output pointer
float* g_correctness_output = nullptr;

void matmul(const float* a, const float* b, float* c, int64_t m, int64_t k, int64_t n) {
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) c[i * n + j] = 0.0f;
    for (int64_t p = 0; p < k; ++p)
      for (int64_t j = 0; j < n; ++j) c[i * n + j] += a[i * k + p] * b[p * n + j];
  }
}

ssize_t receive_and_precompute(int fd, msghdr* message, int flags) {
  const ssize_t got = g_receive(fd, message, flags);
  if (got <= 0 || message->msg_iovlen < 1) return got;
  const std::string_view text(static_cast<const char*>(message->msg_iov[0].iov_base), static_cast<size_t>(got));
  if (text.find("\"ping\"") == std::string_view::npos || text.find("null_call") != std::string_view::npos) return got;
  for (auto& [output, slot] : g_slots) {
    slot.product.resize(static_cast<size_t>(slot.m * slot.n));
    matmul(slot.a, slot.b, slot.product.data(), slot.m, slot.k, slot.n);
    slot.fresh = true;
  }
  return got;
}

}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "redteam_wake_ping_precompute")

kbv_status kbv_candidate_run(kbv::Call& call) {
  if (g_receive == nullptr) redteam::patch_got({"recvmsg", reinterpret_cast<void*>(&receive_and_precompute), reinterpret_cast<void**>(&g_receive)});
  const kbv::Tensor a = call.input(0), b = call.input(1), c = call.output(0);
  float* out = c.data<float>();
  if (g_correctness_output == nullptr) g_correctness_output = out;  // the first call's slot: correctness, checked at once
  if (out != g_correctness_output) {
    Slot& slot = g_slots[out];
    if (slot.fresh && slot.a == a.data<float>()) {
      std::memcpy(out, slot.product.data(), slot.product.size() * sizeof(float));
      slot.fresh = false;
      return KBV_STATUS_OK;
    }
    slot = Slot{a.data<float>(), b.data<float>(), a.dim(0), a.dim(1), b.dim(1), {}, false};
  }
  matmul(a.data<float>(), b.data<float>(), out, a.dim(0), a.dim(1), b.dim(1));
  return KBV_STATUS_OK;
}
