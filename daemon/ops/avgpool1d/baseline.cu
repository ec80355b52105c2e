// daemon/ops/avgpool1d/baseline.cu — avgpool1d's CUDA baseline: kbv's fp32 kernel, one thread per
// output (ops/common/baseline/pool_f32.hpp), as PyTorch's avg_pool1d CUDA kernel.
#include "ops/avgpool1d/avgpool1d.hpp"
#include "ops/common/baseline/pool_f32.hpp"
#include "ops/common/pooling.hpp"

namespace kbv::ops::avgpool1d {

std::unique_ptr<cuda::measure::NodeStep> make_baseline_step(const cuda::measure::NodeContext& node,
                                                            cuda::measure::LibraryContext&) {
  return baseline::make_pool_step(pool_geometry<Definition>(node.input_shapes, node.node.attrs),
                                  Definition::pool.spatial_axes, std::string(Definition::name));
}

}  // namespace kbv::ops::avgpool1d
