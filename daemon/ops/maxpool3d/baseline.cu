// daemon/ops/maxpool3d/baseline.cu — maxpool3d's CUDA baseline: kbv's fp32 kernel, one thread per
// output (ops/common/baseline/pool_f32.hpp), as PyTorch's max_pool3d CUDA kernel.
#include "ops/common/baseline/pool_f32.hpp"
#include "ops/common/pooling.hpp"
#include "ops/maxpool3d/maxpool3d.hpp"

namespace kbv::ops::maxpool3d {

std::unique_ptr<cuda::measure::NodeStep> make_baseline_step(const cuda::measure::NodeContext& node,
                                                            cuda::measure::LibraryContext&) {
  return baseline::make_pool_step(pool_geometry<Definition>(node.input_shapes, node.node.attrs),
                                  Definition::pool.spatial_axes, std::string(Definition::name));
}

}  // namespace kbv::ops::maxpool3d
