// hostile_sum_random_order — not a hack: an honest host sum_dim1 that adds each column's eight
// partial sums in a different order on every call, as an atomicAdd reduction on a GPU does when
// its blocks finish in a different order. Its outputs differ from call to call in their last
// bits only.
// Expected verdict: pass, with the informational flag bitwise_nondeterministic and no other.
#include <kbv/plugin.hpp>

#include <algorithm>
#include <array>
#include <numeric>
#include <random>

namespace {
constexpr int kSplits = 8;
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "sum_random_order")

kbv_status kbv_candidate_run(kbv::Call& call) {
  const kbv::Tensor x = call.input(0);
  const int64_t outer = x.dim(0u), extent = x.dim(1u), inner = x.dim(2u);
  const float* in = x.data<float>();
  float* y = call.output(0).data<float>();
  static std::mt19937 order_source{std::random_device{}()};
  std::array<int, kSplits> order{};
  std::iota(order.begin(), order.end(), 0);
  const int64_t per_split = (extent + kSplits - 1) / kSplits;
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i) {
      std::array<float, kSplits> partial{};
      for (int s = 0; s < kSplits; ++s)
        for (int64_t a = s * per_split; a < std::min(extent, (s + 1) * per_split); ++a) partial[static_cast<size_t>(s)] += in[(o * extent + a) * inner + i];
      std::shuffle(order.begin(), order.end(), order_source);
      float sum = 0.0f;
      for (int s : order) sum += partial[static_cast<size_t>(s)];
      y[o * inner + i] = sum;
    }
  return KBV_STATUS_OK;
}
