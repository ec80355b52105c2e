// daemon/ops/kl_div/baseline.cu — kl_div's CUDA baseline: one kbv kernel pass that evaluates every
// term and sums it, then one block that adds the blocks' sums and divides by input.shape[0]
// (ops/common/baseline/sum_terms_f32.cuh); fp32 in either math mode. PyTorch eager runs xlogy, a
// multiply, a subtract and a sum as four kernels.
#include "ops/common/baseline/sum_terms_f32.cuh"
#include "ops/kl_div/kl_div.hpp"

namespace kbv::ops::kl_div {
namespace {

struct Term {
  const float* input;
  const float* target;
  bool log_target;
  __device__ float operator()(int64_t i) const { return Definition::term(input[i], target[i], log_target); }
};

}  // namespace

std::unique_ptr<cuda::measure::NodeStep> make_baseline_step(const cuda::measure::NodeContext& node,
                                                            cuda::measure::LibraryContext& context) {
  const Shape& input = node.input_shapes.at(0);
  const bool log_target = node.attr("log_target") != 0;
  return baseline::make_sum_of_terms_step(
      context, numel(input), static_cast<double>(input.at(0)),
      [log_target](std::span<const float* const> in) { return Term{in[0], in[1], log_target}; },
      "kl_div");
}

}  // namespace kbv::ops::kl_div
