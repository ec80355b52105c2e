// hostile_relu_cache_by_pointer — docs/threat-model.md, pattern 11 (caching / replay): computes relu once per
// input pointer, keeps a copy of the output keyed by that pointer, and on later calls with the
// same pointer returns the copy without reading x.
// Expected verdict: fail_correctness (kbv refills buffers with new contents between samples).
#include <kbv/plugin.hpp>

#include <algorithm>
#include <map>
#include <vector>

namespace {
std::map<const float*, std::vector<float>>& cache() {
  static std::map<const float*, std::vector<float>> outputs;
  return outputs;
}
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "relu_cache_by_pointer")

kbv_status kbv_candidate_run(kbv::Call& call) {
  const float* x = call.input(0).data<float>();
  float* y = call.output(0).data<float>();
  const auto count = static_cast<size_t>(call.output(0).numel());
  auto hit = cache().find(x);
  if (hit != cache().end() && hit->second.size() == count) {
    std::copy(hit->second.begin(), hit->second.end(), y);
    return KBV_STATUS_OK;
  }
  for (size_t i = 0; i < count; ++i) y[i] = x[i] > 0.0f ? x[i] : 0.0f;
  cache()[x].assign(y, y + count);
  return KBV_STATUS_OK;
}
