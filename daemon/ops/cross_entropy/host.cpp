// daemon/ops/cross_entropy/host.cpp — cross_entropy's host face: shape and dtype checks, cost, and
// one compute<T> that is the fp64 reference and the fp32 host baseline (PyTorch's CPU eager:
// log_softmax per row, then nll_loss's mean with a cascaded sum).
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "ops/cross_entropy/cross_entropy.hpp"
#include "ops/op_support.hpp"

namespace kbv::ops::cross_entropy {
namespace {

using namespace op_support;

// Pairwise sum of values[begin, end): error O(log n · ε), as PyTorch's cascaded nll_loss sum
// (aten/src/ATen/native/LossNLL.cpp) keeps a 32768-row mean within fp32's tolerance.
template <class T>
T pairwise_sum(const std::vector<T>& values, size_t begin, size_t end) {
  constexpr size_t kLeaf = 8;
  if (end - begin <= kLeaf) {
    T total = T(0);
    for (size_t i = begin; i < end; ++i) total += values[i];
    return total;
  }
  const size_t middle = begin + (end - begin) / 2;
  return pairwise_sum(values, begin, middle) + pairwise_sum(values, middle, end);
}

class CrossEntropyOp final : public DefinedOp<CrossEntropyOp, Definition> {
 public:
  Shape infer_shape(const std::vector<Shape>& inputs, const Attrs&) const override {
    check_input_count(name(), Definition::inputs, inputs, 2, 2);
    check_dims_positive(name(), inputs);
    check_rank(name(), "logits", inputs[0], 2, "[N, C] (the K-dimensional form is not supported)");
    if (inputs[1] != Shape{inputs[0][0]})
      throw OpError(std::string(name()) + ": targets " + to_string(inputs[1]) + " for logits " + to_string(inputs[0]) +
                    "; expected targets of shape [" + std::to_string(inputs[0][0]) + "], one class index per row");
    return {};
  }

  // logits must be floating point and targets int64 class indices within [0, C): float targets
  // would be F.cross_entropy's class probabilities, another function.
  void check_input_values(const std::vector<InputValues>& inputs, const std::vector<Shape>& shapes, const Attrs&) const override {
    if (inputs.at(0).dtype != DType::float32)
      throw OpError(std::string(name()) + ": logits are " + std::string(dtype_name(inputs[0].dtype)) + "; expected float32 logits");
    if (inputs.at(1).dtype != DType::int64)
      throw OpError(std::string(name()) + ": targets are " + std::string(dtype_name(inputs[1].dtype)) +
                    "; expected an int64 input of class indices (dtype: int64, range: {low: 0, high: C}); float targets "
                    "(class probabilities) are not supported");
    const IntegerRange range = inputs[1].range;
    const int64_t classes = shapes.at(0).at(1);
    if (range.low < 0 || range.high > classes)
      throw OpError(std::string(name()) + ": targets range over [" + std::to_string(range.low) + ", " + std::to_string(range.high) +
                    "); expected class indices within [0, " + std::to_string(classes) + "), the logits' class axis");
  }

  double flops(const std::vector<Shape>& inputs, const Shape&, const Attrs&) const override {
    return static_cast<double>(numel(inputs.at(0)));
  }

  // Per row: the max, the sum of exp(x − max), lse = max + log(sum), then lse − x[target]; the
  // mean of the rows by a pairwise sum. A target that is not a class index in [0, C) (never the
  // case for kbv's inputs, whose range the loader checks) makes the loss NaN, as on the device.
  template <class T>
  void compute(const OpArgs<T>& args) const {
    check_args(*this, args);
    const int64_t rows = args.input_shapes[0][0], classes = args.input_shapes[0][1];
    const T* logits = args.inputs[0];
    const T* targets = args.inputs[1];
    std::vector<T> losses(static_cast<size_t>(rows));
    for (int64_t n = 0; n < rows; ++n) {
      const T* x = logits + n * classes;
      const T target = targets[n];
      if (!(target >= T(0) && target < static_cast<T>(classes)) || std::floor(target) != target) {
        losses[static_cast<size_t>(n)] = std::numeric_limits<T>::quiet_NaN();
        continue;
      }
      T peak = -std::numeric_limits<T>::infinity();
      for (int64_t c = 0; c < classes; ++c) peak = std::max(peak, x[c]);
      T sum = T(0);
      for (int64_t c = 0; c < classes; ++c) sum += std::exp(x[c] - peak);
      losses[static_cast<size_t>(n)] = peak + std::log(sum) - x[static_cast<int64_t>(target)];
    }
    args.output[0] = pairwise_sum(losses, 0, losses.size()) / static_cast<T>(rows);
  }
};

}  // namespace

const Op& host_op() {
  static const CrossEntropyOp op;
  return op;
}

}  // namespace kbv::ops::cross_entropy
