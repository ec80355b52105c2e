// daemon/ops/cumprod/baseline.cu — cumprod's CUDA baseline: a blocked scan, one block per row
// (ops/common/baseline/scan_f32.cuh), as PyTorch eager's innermost-dim scan kernel.
#include "ops/common/baseline/scan_f32.cuh"
#include "ops/common/baseline/step_support.hpp"

namespace kbv::ops::cumprod {

std::unique_ptr<cuda::measure::NodeStep> make_baseline_step(const cuda::measure::NodeContext& node,
                                                            cuda::measure::LibraryContext&) {
  const baseline::ScanShape scan{baseline::split_at_axis(node, "axis"), baseline::int_attr(node, "reverse", 0) == 1,
                                 baseline::int_attr(node, "exclusive", 0) == 1};
  return std::make_unique<baseline::ScanStep<true>>(scan);
}

}  // namespace kbv::ops::cumprod
