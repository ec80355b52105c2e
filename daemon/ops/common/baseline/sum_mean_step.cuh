// ops/common/baseline/sum_mean_step.cuh — the step sum's and mean's baselines share (one
// reduction along an axis split; axis_f32.cuh): over columns in float4s through the rows' period
// where the split allows it and x is 16-byte aligned (its scratch reserved in the library's
// context), else the one kernel reduce_like picks.
#pragma once

#include <string>
#include <utility>

#include "measure/baseline/node_step.hpp"
#include "ops/common/baseline/axis_f32.cuh"

namespace kbv::ops::baseline {

template <int kKind>  // kSum or kMean
class SumMeanStep final : public cuda::measure::NodeStep {
 public:
  SumMeanStep(AxisSplit split, std::string name, cuda::measure::LibraryContext& context)
      : split_(split), name_(std::move(name)), context_(context) {
    if (period_split(split_)) context_.reserve_scratch(period_scratch_bytes(split_));
  }

  void run(std::span<const float* const> in, float* out, cudaStream_t stream) override {
    if (period_columns(split_, in[0]))  // period_split (the scratch reserved) and x aligned
      reduce_columns_by_period<kKind>(split_, in[0], out, static_cast<float*>(context_.scratch()), stream);
    else
      reduce_like<kKind>(split_, 0.f, in[0], out, stream);
  }

  std::string describe() const override {
    return "kbv " + name_ + " kernel " + split_text(split_) +
           (period_split(split_) ? " (float4 columns through a " + std::to_string(row_period(split_.inner)) + "-row period where x is 16-byte aligned)" : "");
  }

 private:
  AxisSplit split_;
  std::string name_;
  cuda::measure::LibraryContext& context_;
};

}  // namespace kbv::ops::baseline
