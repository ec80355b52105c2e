// daemon/ops/common/baseline/strided_copy_step.cu — layout ops' CUDA baseline steps: a
// device-to-device cudaMemcpyAsync for an in-order copy, the fp32 strided-copy kernel otherwise.
#include <algorithm>
#include <utility>

#include "ops/common/baseline/strided_copy_step.hpp"
#include "ops/common/strided_copy.cuh"

namespace kbv::ops::baseline {
namespace {

// The whole output in order from input 0 (flatten, unflatten, squeeze, unsqueeze, and any plan
// whose merged box is one run).
class MemcpyStep final : public cuda::measure::NodeStep {
 public:
  MemcpyStep(int64_t elements, std::string eager) : elements_(elements), eager_(std::move(eager)) {}
  void run(std::span<const float* const> in, float* out, cudaStream_t stream) override {
    cuda::check(cudaMemcpyAsync(out, in[0], static_cast<size_t>(elements_) * sizeof(float),
                                cudaMemcpyDeviceToDevice, stream),
                "cudaMemcpyAsync (layout copy)");
  }
  std::string describe() const override {
    return "cudaMemcpyAsync of " + std::to_string(elements_) + " floats (" + eager_ + ")";
  }

 private:
  int64_t elements_;
  std::string eager_;
};

class StridedCopyStep final : public cuda::measure::NodeStep {
 public:
  StridedCopyStep(layout::CopyPlan plan, int64_t largest_numel, std::string eager)
      : plan_(std::move(plan)), largest_numel_(largest_numel), eager_(std::move(eager)) {}
  void run(std::span<const float* const> in, float* out, cudaStream_t stream) override {
    layout::launch_strided_copies<float>(plan_.copies, in, out, largest_numel_, stream);
  }
  std::string describe() const override {
    int rank = 0;
    for (const layout::StridedCopy& copy : plan_.copies) rank = std::max(rank, copy.rank);
    const size_t launches =
        (plan_.copies.size() + layout::kCopiesPerLaunch - 1) / layout::kCopiesPerLaunch;
    return "kbv strided copy kernel: " + std::to_string(plan_.copies.size()) +
           " copies of rank <= " + std::to_string(rank) + " in " + std::to_string(launches) +
           " launch(es), " + (largest_numel_ <= layout::kNarrowIndexLimit ? "32" : "64") +
           "-bit indices (" + eager_ + ")";
  }

 private:
  layout::CopyPlan plan_;
  int64_t largest_numel_;
  std::string eager_;
};

}  // namespace

std::unique_ptr<cuda::measure::NodeStep> make_copy_step(const cuda::measure::NodeContext& node,
                                                        layout::CopyPlan plan, std::string eager) {
  if (layout::is_whole_copy(plan))
    return std::make_unique<MemcpyStep>(numel(plan.output), std::move(eager));
  int64_t largest = numel(node.output_shape);
  for (const Shape& shape : node.input_shapes) largest = std::max(largest, numel(shape));
  return std::make_unique<StridedCopyStep>(std::move(plan), largest, std::move(eager));
}

}  // namespace kbv::ops::baseline
