// daemon/ops/smooth_l1_loss/baseline.cu — smooth_l1_loss's CUDA baseline: one kbv kernel pass
// that evaluates every term and sums it, then one block that adds the blocks' sums and divides
// (ops/common/baseline/sum_terms_f32.cuh); fp32 in either math mode (no tensor cores).
#include "ops/common/baseline/sum_terms_f32.cuh"
#include "ops/smooth_l1_loss/smooth_l1_loss.hpp"

namespace kbv::ops::smooth_l1_loss {
namespace {

struct Term {
  const float* a;
  const float* b;
  float beta;
  __device__ float operator()(int64_t i) const { return Definition::term(a[i], b[i], beta); }
};

}  // namespace

std::unique_ptr<cuda::measure::NodeStep> make_baseline_step(const cuda::measure::NodeContext& node,
                                                            cuda::measure::LibraryContext& context) {
  const int64_t count = numel(node.input_shapes.at(0));
  const auto beta = static_cast<float>(node.attr("beta"));
  return baseline::make_sum_of_terms_step(
      context, count, static_cast<double>(count),
      [beta](std::span<const float* const> in) { return Term{in[0], in[1], beta}; },
      "smooth_l1_loss");
}

}  // namespace kbv::ops::smooth_l1_loss
