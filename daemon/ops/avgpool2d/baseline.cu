// daemon/ops/avgpool2d/baseline.cu — avgpool2d's CUDA baseline: kbv's fp32 kernel, one thread per
// output (ops/common/baseline/pool_f32.hpp), as PyTorch's avg_pool2d CUDA kernel.
#include "ops/avgpool2d/avgpool2d.hpp"
#include "ops/common/baseline/pool_f32.hpp"
#include "ops/common/pooling.hpp"

namespace kbv::ops::avgpool2d {

std::unique_ptr<cuda::measure::NodeStep> make_baseline_step(const cuda::measure::NodeContext& node,
                                                            cuda::measure::LibraryContext&) {
  return baseline::make_pool_step(pool_geometry<Definition>(node.input_shapes, node.node.attrs),
                                  Definition::pool.spatial_axes, std::string(Definition::name));
}

}  // namespace kbv::ops::avgpool2d
