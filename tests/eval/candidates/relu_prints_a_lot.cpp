// hostile_relu_prints_a_lot — not a hack: an honest relu that dumps 256 KiB of debug text to
// stdout in its first call, four times what a pipe holds, then a last line.
// Expected verdict: pass (the evaluator drains the worker's output while it waits, so the
// candidate never blocks in write()); the report's tail ends with the last line.
#include <kbv/plugin.hpp>

#include <cstdio>

namespace {
constexpr int kDumpLines = 4096;  // 64 bytes each: 256 KiB
bool g_dumped = false;
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "relu_prints_a_lot")

kbv_status kbv_candidate_run(kbv::Call& call) {
  if (!g_dumped) {
    g_dumped = true;
    for (int line = 0; line < kDumpLines; ++line) std::printf("relu_prints_a_lot: debug line %06d ....................................\n", line);
    std::printf("relu_prints_a_lot: end of the dump\n");
  }
  const float* x = call.input(0).data<float>();
  float* y = call.output(0).data<float>();
  for (int64_t i = 0; i < call.output(0).numel(); ++i) y[i] = x[i] > 0.0f ? x[i] : 0.0f;
  return KBV_STATUS_OK;
}
