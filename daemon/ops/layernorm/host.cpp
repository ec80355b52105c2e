// daemon/ops/layernorm/host.cpp — layernorm's host face: fp64 reference and fp32 host baseline,
// shape inference and cost.
#include <cmath>

#include "ops/layernorm/layernorm.hpp"
#include "ops/op_support.hpp"

namespace kbv::ops::layernorm {
namespace {

using namespace op_support;

constexpr double kDefaultEps = default_of<Definition>("eps");
constexpr double kDefaultNormalizedRank = default_of<Definition>("normalized_rank");

class LayerNormOp final : public DefinedOp<LayerNormOp, Definition> {
 public:
  Shape infer_shape(const std::vector<Shape>& inputs, const Attrs& attrs) const override {
    check_input_count(name(), Definition::inputs, inputs, 1, 3);
    check_dims_positive(name(), inputs);
    const Shape& x = inputs[0];
    int64_t rank = int_attr(name(), attrs, "normalized_rank", kDefaultNormalizedRank, 1);
    if (rank > static_cast<int64_t>(x.size()))
      throw OpError("layernorm: normalized_rank is " + std::to_string(rank) +
                    " but input x has shape " + to_string(x) + "; expected normalized_rank <= " +
                    std::to_string(x.size()));
    if (real_attr(name(), attrs, "eps", kDefaultEps) < 0)
      throw OpError("layernorm: attribute eps is negative; expected eps >= 0");
    Shape normalized(x.end() - rank, x.end());
    const char* names[] = {"x", "weight", "bias"};
    for (size_t i = 1; i < inputs.size(); ++i)
      if (inputs[i] != normalized)
        throw OpError("layernorm: input " + std::string(names[i]) + " has shape " +
                      to_string(inputs[i]) + "; expected the normalised trailing dims of x, " +
                      to_string(normalized));
    return x;
  }

  // Four per element, a lower bound for any algorithm: one add into the mean, a multiply and
  // an add into the variance, at least one operation to produce the output.
  double flops(const std::vector<Shape>& inputs, const Shape&, const Attrs&) const override {
    return 4.0 * static_cast<double>(numel(inputs.at(0)));
  }

  // Two passes per row (mean, then the biased variance of the deviations), then the output.
  template <class T>
  void compute(const OpArgs<T>& args) const {
    check_args(*this, args);
    const Attrs& attrs = attrs_of(args);
    const Shape& shape = args.input_shapes[0];
    const auto rank = static_cast<size_t>(
        int_attr(name(), attrs, "normalized_rank", kDefaultNormalizedRank, 1));
    const int64_t row = numel(Shape(shape.end() - static_cast<std::ptrdiff_t>(rank), shape.end()));
    const int64_t rows = numel(shape) / row;
    const T eps = static_cast<T>(real_attr(name(), attrs, "eps", kDefaultEps));
    const T* weight = args.inputs.size() > 1 ? args.inputs[1] : nullptr;
    const T* bias = args.inputs.size() > 2 ? args.inputs[2] : nullptr;
    for (int64_t r = 0; r < rows; ++r) {
      const T* x = args.inputs[0] + r * row;
      T* y = args.output + r * row;
      T sum = 0;
      for (int64_t j = 0; j < row; ++j) sum += x[j];
      const T mean = sum / static_cast<T>(row);
      T squares = 0;
      for (int64_t j = 0; j < row; ++j) squares += (x[j] - mean) * (x[j] - mean);
      const T rstd = T(1) / std::sqrt(squares / static_cast<T>(row) + eps);
      for (int64_t j = 0; j < row; ++j) {
        T value = (x[j] - mean) * rstd;
        if (weight) value *= weight[j];
        if (bias) value += bias[j];
        y[j] = value;
      }
    }
  }
};

}  // namespace

const Op& host_op() {
  static const LayerNormOp op;
  return op;
}

}  // namespace kbv::ops::layernorm
