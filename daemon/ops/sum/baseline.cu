// daemon/ops/sum/baseline.cu — sum's CUDA baseline: one kbv reduction per application
// (ops/common/baseline/sum_mean_step.cuh), as PyTorch eager's one reduce kernel; a few long rows
// split over many blocks (ops/common/baseline/axis_reduce_f32.cuh), as PyTorch splits them.
#include <memory>

#include "measure/baseline/node_step.hpp"
#include "ops/common/baseline/axis_reduce_f32.cuh"
#include "ops/common/baseline/step_support.hpp"
#include "ops/common/baseline/sum_mean_step.cuh"

namespace kbv::ops::sum {

std::unique_ptr<cuda::measure::NodeStep> make_baseline_step(const cuda::measure::NodeContext& node,
                                                            cuda::measure::LibraryContext& context) {
  const baseline::AxisSplit split = baseline::split_at_reduced_axes(node);
  // A few long rows (a full reduction: torch.mean(x), MSE) are split over many blocks.
  if (baseline::split_pieces(split) > 1) return baseline::axis_reduce_step(node, baseline::SumReducer<false>{}, split);
  return std::make_unique<baseline::SumMeanStep<baseline::kSum>>(split, "sum", context);
}

}  // namespace kbv::ops::sum
