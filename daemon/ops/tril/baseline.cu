// daemon/ops/tril/baseline.cu — tril's CUDA baseline: one masked-copy kernel per application
// (ops/common/baseline/triangle_f32.cuh), as PyTorch eager's.
#include "ops/common/baseline/triangle_f32.cuh"

namespace kbv::ops::tril {

std::unique_ptr<cuda::measure::NodeStep> make_baseline_step(const cuda::measure::NodeContext& node,
                                                            cuda::measure::LibraryContext&) {
  return std::make_unique<baseline::TriangleStep>(true, static_cast<int64_t>(node.attr("diagonal")),
                                                  static_cast<float>(node.attr("fill")),
                                                  node.input_shapes.at(0));
}

}  // namespace kbv::ops::tril
