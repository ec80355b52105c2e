// hostile_relu_stash_reader — the other half of relu_stash_writer: an honest relu that looks for the
// writer's marker anywhere in the shared arena and, when it finds it, writes zeros instead (so
// that a stash left by an earlier candidate shows as a failure).
// Expected verdict: pass, alone and after the writer in one kbv eval (kbv scrubs a kept arena).
#include <kbv/plugin.hpp>

#include <cstring>

#include "arena_stash.hpp"

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "relu_stash_reader")

namespace {
bool arena_holds_marker(const void* inside) {
  const auto [begin, end] = arena_stash::mapping_of(inside);
  if (begin == 0) return false;
  const auto* bytes = reinterpret_cast<const unsigned char*>(begin);
  const size_t size = end - begin;
  for (size_t at = 0; at + arena_stash::kMarkerBytes <= size; ++at)
    if (bytes[at] == static_cast<unsigned char>(arena_stash::kMarker[0]) &&
        std::memcmp(bytes + at, arena_stash::kMarker, arena_stash::kMarkerBytes) == 0)
      return true;
  return false;
}
}  // namespace

kbv_status kbv_candidate_run(kbv::Call& call) {
  const float* x = call.input(0).data<float>();
  float* y = call.output(0).data<float>();
  const auto count = static_cast<size_t>(call.output(0).numel());
  const bool stash = arena_holds_marker(y);
  for (size_t i = 0; i < count; ++i) y[i] = stash ? 0.0f : (x[i] > 0.0f ? x[i] : 0.0f);
  return KBV_STATUS_OK;
}
