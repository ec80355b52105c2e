// daemon/ops/sum/baseline.cu — sum's CUDA baseline: one kbv reduction kernel per application
// (ops/common/baseline/axis_f32.cuh), as PyTorch eager's one reduce kernel; a few long rows split
// over many blocks (ops/common/baseline/axis_reduce_f32.cuh), as PyTorch splits them.
#include <memory>

#include "measure/baseline/node_step.hpp"
#include "ops/common/baseline/axis_f32.cuh"
#include "ops/common/baseline/axis_reduce_f32.cuh"
#include "ops/common/baseline/step_support.hpp"

namespace kbv::ops::sum {
namespace {

class SumStep final : public cuda::measure::NodeStep {
 public:
  explicit SumStep(baseline::AxisSplit split) : split_(split) {}
  void run(std::span<const float* const> in, float* out, cudaStream_t stream) override {
    baseline::reduce_like<baseline::kSum>(split_, 0.f, in[0], out, stream);
  }
  std::string describe() const override { return "kbv sum kernel " + baseline::split_text(split_); }

 private:
  baseline::AxisSplit split_;
};

}  // namespace

std::unique_ptr<cuda::measure::NodeStep> make_baseline_step(const cuda::measure::NodeContext& node,
                                                            cuda::measure::LibraryContext&) {
  const baseline::AxisSplit split = baseline::split_at_reduced_axes(node);
  // A few long rows (a full reduction: torch.mean(x), MSE) are split over many blocks.
  if (baseline::split_pieces(split) > 1) return baseline::axis_reduce_step(node, baseline::SumReducer<false>{}, split);
  return std::make_unique<SumStep>(split);
}

}  // namespace kbv::ops::sum
