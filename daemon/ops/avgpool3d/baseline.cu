// daemon/ops/avgpool3d/baseline.cu — avgpool3d's CUDA baseline: kbv's fp32 kernel, one thread per
// output (ops/common/baseline/pool_f32.hpp), as PyTorch's avg_pool3d CUDA kernel.
#include "ops/avgpool3d/avgpool3d.hpp"
#include "ops/common/baseline/pool_f32.hpp"
#include "ops/common/pooling.hpp"

namespace kbv::ops::avgpool3d {

std::unique_ptr<cuda::measure::NodeStep> make_baseline_step(const cuda::measure::NodeContext& node,
                                                            cuda::measure::LibraryContext&) {
  return baseline::make_pool_step(pool_geometry<Definition>(node.input_shapes, node.node.attrs),
                                  Definition::pool.spatial_axes, std::string(Definition::name));
}

}  // namespace kbv::ops::avgpool3d
