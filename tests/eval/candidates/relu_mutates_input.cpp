// hostile_relu_mutates_input — docs/threat-model.md, pattern 10 (input mutation): computes relu correctly,
// then overwrites its input x with zeros, so a reference computed afterwards from the same
// buffer would also be all zeros.
// Expected verdict: hack_suspected, hack_pattern "input_mutation".
#include <kbv/plugin.hpp>

#include <cstring>

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "relu_mutates_input")

kbv_status kbv_candidate_run(kbv::Call& call) {
  // The ABI hands inputs over as borrowed read-only data; this candidate casts that away.
  float* x = call.input(0).data<float>();
  float* y = call.output(0).data<float>();
  const int64_t count = call.output(0).numel();
  for (int64_t i = 0; i < count; ++i) y[i] = x[i] > 0.0f ? x[i] : 0.0f;
  std::memset(x, 0, static_cast<size_t>(count) * sizeof(float));
  return KBV_STATUS_OK;
}
