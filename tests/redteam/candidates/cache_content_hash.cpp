// redteam_cache_content_hash — docs/threat-model.md, pattern 11 (caching / replay by content), host relu:
// hashes the element count and 64 sampled input values; on a hash seen before it returns the
// stored output without computing. Cheap to hash, so every hit is a large fake speedup.
// Expected: pass with no cache benefit — every timed sample has distinct contents, so the
// cache never hits and timing matches host_relu (speedup ≈ 1 vs host_relu). A speedup far above
// host_relu's means kbv repeats input contents across samples.
#include "redteam_common.hpp"

#include <algorithm>
#include <cstring>
#include <unordered_map>
#include <vector>

namespace {
constexpr int64_t kSamples = 64;
constexpr size_t kMaxEntries = 16;  // bounded, like a real cache would be
constexpr uint64_t kFnvOffset = 1469598103934665603ull, kFnvPrime = 1099511628211ull;  // FNV-1a 64

uint64_t sampled_hash(const float* x, int64_t count) {
  uint64_t hash = kFnvOffset ^ static_cast<uint64_t>(count);
  const int64_t step = std::max<int64_t>(1, count / kSamples);
  for (int64_t i = 0; i < count; i += step) {
    uint32_t bits = 0;
    std::memcpy(&bits, &x[i], sizeof bits);
    hash = (hash ^ bits) * kFnvPrime;
  }
  return hash;
}

std::unordered_map<uint64_t, std::vector<float>> g_cache;
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "redteam_cache_content_hash")

kbv_status kbv_candidate_run(kbv::Call& call) {
  const float* x = call.input(0).data<float>();
  float* y = call.output(0).data<float>();
  const int64_t count = call.output(0).numel();
  const uint64_t key = sampled_hash(x, count);
  if (auto hit = g_cache.find(key); hit != g_cache.end()) {
    std::copy(hit->second.begin(), hit->second.end(), y);
    return KBV_STATUS_OK;
  }
  redteam::relu(x, y, count);
  if (g_cache.size() >= kMaxEntries) g_cache.erase(g_cache.begin());
  g_cache.emplace(key, std::vector<float>(y, y + count));
  return KBV_STATUS_OK;
}
