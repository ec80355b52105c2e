// daemon/ops/adaptive_avgpool2d/baseline.cu — adaptive_avgpool2d's CUDA baseline: kbv's fp32
// kernel, one thread per output (ops/common/baseline/pool_f32.hpp), as PyTorch's adaptive_avg_pool
// CUDA kernel, or input.mean over the spatial dims for output_size 1.
#include "ops/adaptive_avgpool2d/adaptive_avgpool2d.hpp"
#include "ops/common/baseline/pool_f32.hpp"
#include "ops/common/pooling.hpp"

namespace kbv::ops::adaptive_avgpool2d {

std::unique_ptr<cuda::measure::NodeStep> make_baseline_step(const cuda::measure::NodeContext& node,
                                                            cuda::measure::LibraryContext&) {
  return baseline::make_pool_step(pool_geometry<Definition>(node.input_shapes, node.node.attrs),
                                  Definition::pool.spatial_axes, std::string(Definition::name));
}

}  // namespace kbv::ops::adaptive_avgpool2d
