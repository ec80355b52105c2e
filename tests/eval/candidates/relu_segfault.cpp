// hostile_relu_segfault — a candidate that writes through a null pointer inside run().
// Expected verdict: crash (the worker dies of SIGSEGV; kbv reports it and carries on).
#include <kbv/plugin.hpp>

namespace {
// volatile so the compiler keeps the store instead of folding the undefined behaviour away.
float* volatile g_null_output = nullptr;
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "relu_segfault")

kbv_status kbv_candidate_run(kbv::Call& call) {
  const float* x = call.input(0).data<float>();
  float* y = g_null_output;
  const int64_t count = call.output(0).numel();
  for (int64_t i = 0; i < count; ++i) y[i] = x[i] > 0.0f ? x[i] : 0.0f;
  return KBV_STATUS_OK;
}
