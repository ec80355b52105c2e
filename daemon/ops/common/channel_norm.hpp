// ops/common/channel_norm.hpp — the host face batchnorm, groupnorm and instancenorm share: shape
// inference for x[N, C, *] with an optional per-channel weight and bias (both or neither), the
// cost, and the two-pass normalisation of every statistics set (ops/common/channel_sets.hpp)
// that is both the fp64 reference and the fp32 host baseline; and the descriptor fields the three
// share (ChannelNormDefinition). Derived supplies
//   static constexpr size_t kMinRank;                               x's smallest rank
//   static void check(const Shape& x, const Attrs& attrs);          the op's own refusals
//   static ChannelSets sets(const Shape& x, const Attrs& attrs);    its statistics sets
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "ops/common/channel_sets.hpp"
#include "ops/common/definition.hpp"
#include "ops/op_support.hpp"

namespace kbv::ops {

// What the three norms' descriptors share; each adds name, attributes, semantics and pytorch.
struct ChannelNormDefinition {
  static constexpr OpCategory category = OpCategory::normalization;
  static constexpr std::string_view inputs = "x[N,C,*], weight[C]?, bias[C]?";
  static constexpr size_t min_inputs = 1;
  static constexpr size_t max_inputs = 3;
  static constexpr PrecisionClass precision = PrecisionClass::exact;
  static constexpr std::string_view flops_rule = "4 per element (mean add, variance multiply and add, one output op)";
};

// Per set: the mean, then the biased variance of the deviations from it (two passes: no
// cancellation when |mean| ≫ stddev), then y = (x − mean)/sqrt(var + eps)·weight[c] + bias[c];
// weight and bias may be null. Accumulates in T.
template <class T>
void normalize_sets(const ChannelSets& sets, const T* x, const T* weight, const T* bias, T eps, T* y) {
  const auto size = static_cast<T>(sets.set_size());
  for (int64_t set = 0; set < sets.count(); ++set) {
    const int64_t start = sets.set_start(set);
    T sum = 0;
    for (int64_t segment = 0; segment < sets.segments(); ++segment) {
      const T* in = x + start + segment * sets.segment_stride();
      for (int64_t j = 0; j < sets.segment_length(); ++j) sum += in[j];
    }
    const T mean = sum / size;
    T squares = 0;
    for (int64_t segment = 0; segment < sets.segments(); ++segment) {
      const T* in = x + start + segment * sets.segment_stride();
      for (int64_t j = 0; j < sets.segment_length(); ++j) squares += (in[j] - mean) * (in[j] - mean);
    }
    const T rstd = T(1) / std::sqrt(squares / size + eps);
    for (int64_t segment = 0; segment < sets.segments(); ++segment) {
      const int64_t base = start + segment * sets.segment_stride();
      for (int64_t k = 0; k < sets.channels_per_set; ++k) {
        const int64_t c = sets.first_channel(set) + k;
        for (int64_t j = base + k * sets.spatial; j < base + (k + 1) * sets.spatial; ++j) {
          T value = (x[j] - mean) * rstd;
          if (weight) value *= weight[c];
          if (bias) value += bias[c];
          y[j] = value;
        }
      }
    }
  }
}

template <class Derived, class Definition>
class ChannelNormOp : public DefinedOp<Derived, Definition> {
 public:
  Shape infer_shape(const std::vector<Shape>& inputs, const Attrs& attrs) const override {
    using namespace op_support;
    constexpr std::string_view op = Definition::name;
    check_input_count(op, Definition::inputs, inputs, 1, 3);
    check_dims_positive(op, inputs);
    if (inputs.size() == 2)
      throw OpError(std::string(op) +
                    ": got a weight without a bias; expected weight and bias both or neither (" +
                    std::string(Definition::inputs) + ")");
    const Shape& x = inputs[0];
    if (x.size() < Derived::kMinRank)
      throw OpError(std::string(op) + ": input x has shape " + to_string(x) + "; expected rank >= " +
                    std::to_string(Derived::kMinRank) + " " + std::string(Definition::inputs));
    const char* names[] = {"x", "weight", "bias"};
    for (size_t i = 1; i < inputs.size(); ++i)
      if (inputs[i] != Shape{x[1]})
        throw OpError(std::string(op) + ": input " + names[i] + " has shape " + to_string(inputs[i]) +
                      "; expected one value per channel of x, [" + std::to_string(x[1]) + "]");
    if (real_attr(op, attrs, "eps", default_of<Definition>("eps")) < 0)
      throw OpError(std::string(op) + ": attribute eps is negative; expected eps >= 0");
    Derived::check(x, attrs);
    return x;
  }

  // Four per element, a lower bound for any algorithm: one add into the mean, a multiply and an
  // add into the variance, at least one operation to produce the output.
  double flops(const std::vector<Shape>& inputs, const Shape&, const Attrs&) const override {
    return 4.0 * static_cast<double>(numel(inputs.at(0)));
  }

  template <class T>
  void compute(const OpArgs<T>& args) const {
    op_support::check_args(*this, args);
    const Attrs& attrs = op_support::attrs_of(args);
    const T eps =
        static_cast<T>(op_support::real_attr(Definition::name, attrs, "eps", default_of<Definition>("eps")));
    const bool affine = args.inputs.size() == 3;
    normalize_sets<T>(Derived::sets(args.input_shapes[0], attrs), args.inputs[0],
                      affine ? args.inputs[1] : nullptr, affine ? args.inputs[2] : nullptr, eps, args.output);
  }
};

}  // namespace kbv::ops
