// daemon/ops/common/baseline/broadcast_add.cu — the broadcast add other baselines reuse: the binary
// elementwise kernel (ops/common/baseline/elementwise_f32.cuh) with a + b.
#include "ops/common/baseline/broadcast.hpp"
#include "ops/common/baseline/elementwise_f32.cuh"

namespace kbv::ops::baseline {
namespace {

struct Plus {
  __device__ float operator()(float a, float b) const { return a + b; }
};

}  // namespace

void launch_broadcast_add(const BroadcastGeometry& geometry, const float* a, const float* b,
                          float* y, cudaStream_t stream) {
  launch_binary(Plus{}, geometry, a, b, y, stream);
}

}  // namespace kbv::ops::baseline
