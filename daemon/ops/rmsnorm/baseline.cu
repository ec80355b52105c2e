// daemon/ops/rmsnorm/baseline.cu — rmsnorm's CUDA baseline: one fused kbv kernel (the sum of
// squares and the division, ops/common/baseline/axis_f32.cuh). PyTorch eager needs several kernels
// for it (pow, mean, add, sqrt, div): one fused kernel is never slower, so it cannot inflate a
// speedup.
#include <memory>

#include "measure/baseline/node_step.hpp"
#include "ops/common/baseline/axis_f32.cuh"
#include "ops/common/baseline/step_support.hpp"

namespace kbv::ops::rmsnorm {
namespace {

class RmsNormStep final : public cuda::measure::NodeStep {
 public:
  RmsNormStep(baseline::AxisSplit split, float eps) : split_(split), eps_(eps) {}
  void run(std::span<const float* const> in, float* out, cudaStream_t stream) override {
    baseline::reduce_like<baseline::kRmsNorm>(split_, eps_, in[0], out, stream);
  }
  std::string describe() const override {
    // The path the launch takes when x and y are 16-byte aligned (as every buffer kbv allocates).
    return "kbv fused rmsnorm kernel " + baseline::split_text(split_) +
           (baseline::float4_column_split(split_) ? " (float4 columns, values in registers)" : "");
  }

 private:
  baseline::AxisSplit split_;
  float eps_;
};

}  // namespace

std::unique_ptr<cuda::measure::NodeStep> make_baseline_step(const cuda::measure::NodeContext& node,
                                                            cuda::measure::LibraryContext&) {
  return std::make_unique<RmsNormStep>(baseline::split_at_axis(node, "axis"),
                                       static_cast<float>(node.attr("eps")));
}

}  // namespace kbv::ops::rmsnorm
