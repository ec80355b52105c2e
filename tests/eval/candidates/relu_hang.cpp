// hostile_relu_hang — a candidate that spins forever inside run().
// Expected verdict: timeout (kbv kills the worker after --timeout-s).
#include <kbv/plugin.hpp>

#include <atomic>

namespace {
// An atomic load the optimiser cannot prove constant, so the loop is not undefined behaviour.
std::atomic<bool> g_forever{true};
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "relu_hang")

kbv_status kbv_candidate_run(kbv::Call&) {
  while (g_forever.load(std::memory_order_relaxed)) {
  }
  return KBV_STATUS_OK;
}
