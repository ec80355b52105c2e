// hostile_relu_stash_writer — docs/threat-model.md, pattern 11 (caching / replay), across candidates:
// an honest relu that, on every call, also leaves a marker in the shared arena just past its own
// output (in the next slot's buffers), for a later candidate evaluated in the same process on the
// same problem (whose inputs come from the same seeds). It corrupts nothing it is judged on.
// Expected verdict: pass; the reader after it must not find the marker (kbv scrubs a kept arena).
#include <kbv/plugin.hpp>

#include <cstring>

#include "arena_stash.hpp"

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "relu_stash_writer")

kbv_status kbv_candidate_run(kbv::Call& call) {
  const float* x = call.input(0).data<float>();
  float* y = call.output(0).data<float>();
  const auto count = static_cast<size_t>(call.output(0).numel());
  for (size_t i = 0; i < count; ++i) y[i] = x[i] > 0.0f ? x[i] : 0.0f;
  const auto [begin, end] = arena_stash::mapping_of(y);
  const auto past_output = reinterpret_cast<uintptr_t>(y + count);
  if (begin != 0 && past_output + arena_stash::kMarkerBytes <= end)
    std::memcpy(reinterpret_cast<void*>(past_output), arena_stash::kMarker, arena_stash::kMarkerBytes);
  return KBV_STATUS_OK;
}
