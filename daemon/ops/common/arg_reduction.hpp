// ops/common/arg_reduction.hpp — the host face argmax and argmin share: shape inference (one
// axis, keepdim 0 by default, an extent whose every index float32 holds) and the loop that is
// both the fp64 reference and the fp32 host baseline, writing the first index of the extreme
// as a value of T.
#pragma once

#include <string>
#include <vector>

#include "ops/common/axis_reduction.hpp"

namespace kbv::ops {

// float32 holds every integer up to 2^24 exactly; a larger index could not be written.
constexpr int64_t kLargestExactFloatIndex = int64_t{1} << 24;

// For every line, the first position along the extent of its maximum (kMax) or minimum, a NaN
// beating every number (the first NaN wins), as torch.argmax/argmin.
template <bool kMax, class T>
void reduce_arg_extreme(const T* x, T* y, const op_support::AxisSplit& split) {
  const auto inner = static_cast<size_t>(split.inner);
  std::vector<T> best(inner);
  std::vector<int64_t> position(inner);
  for (int64_t o = 0; o < split.outer; ++o) {
    const T* slab = x + o * split.extent * split.inner;
    for (size_t i = 0; i < inner; ++i) {
      best[i] = slab[i];
      position[i] = 0;
    }
    for (int64_t a = 1; a < split.extent; ++a)
      for (size_t i = 0; i < inner; ++i) {
        const T value = slab[a * split.inner + static_cast<int64_t>(i)];
        if (best[i] != best[i]) continue;  // a NaN already won
        if (value != value || (kMax ? value > best[i] : value < best[i])) {
          best[i] = value;
          position[i] = a;
        }
      }
    for (size_t i = 0; i < inner; ++i) y[o * split.inner + static_cast<int64_t>(i)] = static_cast<T>(position[i]);
  }
}

template <class Derived, class Definition>
class ArgReductionOp : public AxisReductionOp<Derived, Definition> {
 public:
  Shape infer_shape(const std::vector<Shape>& inputs, const Attrs& attrs) const override {
    Shape out = AxisReductionOp<Derived, Definition>::infer_shape(inputs, attrs);
    const op_support::ReducedAxes axes = reduced_axes_of<Definition>(attrs, inputs[0].size());
    if (inputs[0][axes.axis] > kLargestExactFloatIndex)
      throw OpError(std::string(Definition::name) + ": axis " + std::to_string(axes.axis) + " has extent " +
                    std::to_string(inputs[0][axes.axis]) + "; expected at most 2^24 = 16777216, the indices float32 holds");
    return out;
  }

  double flops(const std::vector<Shape>& inputs, const Shape& output, const Attrs&) const override {
    return static_cast<double>(numel(inputs.at(0)) - numel(output));
  }
};

}  // namespace kbv::ops
