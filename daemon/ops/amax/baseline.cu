// daemon/ops/amax/baseline.cu — amax's CUDA baseline: one kbv reduction kernel per
// application (ops/common/baseline/axis_reduce_f32.cuh), as PyTorch eager's one reduce kernel.
#include "ops/common/baseline/axis_reduce_f32.cuh"
#include "ops/common/baseline/step_support.hpp"

namespace kbv::ops::amax {

std::unique_ptr<cuda::measure::NodeStep> make_baseline_step(const cuda::measure::NodeContext& node,
                                                            cuda::measure::LibraryContext&) {
  return baseline::axis_reduce_step(node, baseline::ExtremeReducer<true>{}, baseline::split_at_reduced_axes(node));
}

}  // namespace kbv::ops::amax
