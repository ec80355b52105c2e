// daemon/ops/triu/baseline.cu — triu's CUDA baseline: one masked-copy kernel per application
// (ops/common/baseline/triangle_f32.cuh), as PyTorch eager's.
#include "ops/common/baseline/triangle_f32.cuh"

namespace kbv::ops::triu {

std::unique_ptr<cuda::measure::NodeStep> make_baseline_step(const cuda::measure::NodeContext& node,
                                                            cuda::measure::LibraryContext&) {
  return std::make_unique<baseline::TriangleStep>(false, static_cast<int64_t>(node.attr("diagonal")),
                                                  static_cast<float>(node.attr("fill")),
                                                  node.input_shapes.at(0));
}

}  // namespace kbv::ops::triu
