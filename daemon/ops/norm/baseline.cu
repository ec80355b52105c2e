// daemon/ops/norm/baseline.cu — norm's CUDA baseline: one kbv reduction kernel per application
// (ops/common/baseline/axis_reduce_f32.cuh), as PyTorch eager's one norm kernel.
#include "ops/common/baseline/axis_reduce_f32.cuh"
#include "ops/common/baseline/step_support.hpp"

namespace kbv::ops::norm {

std::unique_ptr<cuda::measure::NodeStep> make_baseline_step(const cuda::measure::NodeContext& node,
                                                            cuda::measure::LibraryContext&) {
  const baseline::NormReducer reducer{static_cast<float>(node.attr("p"))};
  return baseline::axis_reduce_step(node, reducer, baseline::split_at_reduced_axes(node));
}

}  // namespace kbv::ops::norm
