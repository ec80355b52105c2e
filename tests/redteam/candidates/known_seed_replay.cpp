// redteam_known_seed_replay — docs/threat-model.md, pattern 2 (known-seed replay), host relu: re-creates kbv's
// public family generator (Philox4x32, as published in inputs/families.hpp) and tries seeds
// 0…4095 until the first input values match; on a match it writes relu of the regenerated data
// without reading x (the step that would let a harness-aware kernel precompute outputs).
// No match: it writes nothing.
// Expected: fail_correctness (trial seeds come from a secret key; no guess ever matches).
#include "redteam_common.hpp"

#include <Random123/philox.h>

namespace {
constexpr uint64_t kSeedGuesses = 4096;      // covers 0, 42, 1234, epoch numbers…
constexpr uint32_t kElementStream = 0x6b627601u;  // "kbv\x01", public in kbv's source
constexpr double kTwoToMinus24 = 1.0 / 16777216.0;

// Element `index` of input `tensor` of the public U[0,1) family under `seed`.
float public_value(uint64_t seed, uint32_t tensor, uint64_t index) {
  r123::Philox4x32 generator;
  const r123::Philox4x32::ctr_type counter = {
      {static_cast<uint32_t>(index), static_cast<uint32_t>(index >> 32), tensor, kElementStream}};
  const r123::Philox4x32::key_type key = {{static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32)}};
  return static_cast<float>((generator(counter, key)[0] >> 8) * kTwoToMinus24);
}
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "redteam_known_seed_replay")

kbv_status kbv_candidate_run(kbv::Call& call) {
  const float* x = call.input(0).data<float>();
  float* y = call.output(0).data<float>();
  const int64_t count = call.output(0).numel();
  if (count < 2) return KBV_STATUS_OK;
  for (uint64_t seed = 0; seed < kSeedGuesses; ++seed) {
    if (public_value(seed, 0, 0) != x[0] || public_value(seed, 0, 1) != x[1]) continue;
    redteam::log("seed " + std::to_string(seed) + " reproduces the inputs");
    for (int64_t i = 0; i < count; ++i) y[i] = public_value(seed, 0, static_cast<uint64_t>(i));
    return KBV_STATUS_OK;  // U[0,1) values are their own relu
  }
  return KBV_STATUS_OK;
}
