// hostile_relu_prints — not a hack: an honest relu that debugs with printf (stdout) and
// fprintf(stderr), as newcomers do.
// Expected verdict: pass; the report's worker_stderr_tail holds both lines, in order (kbv eval
// --verbose prints it), and no sandbox notices.
#include <kbv/plugin.hpp>

#include <cstdio>

namespace {
int g_calls = 0;
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "relu_prints")

kbv_status kbv_candidate_run(kbv::Call& call) {
  ++g_calls;
  if (g_calls == 1) {
    std::printf("relu_prints: stdout on call %d\n", g_calls);
    std::fprintf(stderr, "relu_prints: stderr on call %d\n", g_calls);
  }
  const float* x = call.input(0).data<float>();
  float* y = call.output(0).data<float>();
  for (int64_t i = 0; i < call.output(0).numel(); ++i) y[i] = x[i] > 0.0f ? x[i] : 0.0f;
  return KBV_STATUS_OK;
}
