// tests/sweep/candidates/relu_sparse_tile_bug.cpp — an honest-looking relu with a zero-skipping
// fast path that is wrong: a tile of four inputs holding two or more exact zeros is taken for
// an all-zero tile and written as zeros, losing its positive values. Only the hidden `sparse`
// family has exact zeros (the public U[0,1) draws one with probability 2^-24 per element, two
// in a tile never), so it passes every epoch whose hidden families leave `sparse` out and
// fails the others: the sweep's re-verification must report it as a regression.
#include <kbv/plugin.hpp>

namespace {
constexpr int64_t kTile = 4;
constexpr int kZerosThatSkipATile = 2;
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "relu_sparse_tile_bug")

kbv_status kbv_candidate_run(kbv::Call& call) {
  const float* x = call.input(0).data<float>();
  float* y = call.output(0).data<float>();
  const int64_t count = call.output(0).numel();
  for (int64_t start = 0; start < count; start += kTile) {
    const int64_t end = start + kTile < count ? start + kTile : count;
    int zeros = 0;
    for (int64_t i = start; i < end; ++i) zeros += x[i] == 0.0f ? 1 : 0;
    for (int64_t i = start; i < end; ++i) y[i] = zeros >= kZerosThatSkipATile ? 0.0f : (x[i] > 0.0f ? x[i] : 0.0f);
  }
  return KBV_STATUS_OK;
}
