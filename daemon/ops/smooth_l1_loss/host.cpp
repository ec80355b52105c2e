// daemon/ops/smooth_l1_loss/host.cpp — smooth_l1_loss's host face: fp64 reference and fp32 host
// baseline (a pairwise sum of the terms, ops/common/losses.hpp), shape inference and cost.
#include "ops/common/losses.hpp"
#include "ops/op_support.hpp"
#include "ops/smooth_l1_loss/smooth_l1_loss.hpp"

namespace kbv::ops::smooth_l1_loss {
namespace {

using namespace op_support;

constexpr double kDefaultBeta = default_of<Definition>("beta");

double beta_of(const Attrs& attrs) {
  const double beta = real_attr(Definition::name, attrs, "beta", kDefaultBeta);
  if (beta < 0)
    throw OpError("smooth_l1_loss: attribute beta is " + format_number(beta) +
                  "; expected beta >= 0 (PyTorch refuses negative values; 0 is the L1 loss)");
  return beta;
}

class SmoothL1LossOp final : public DefinedOp<SmoothL1LossOp, Definition> {
 public:
  Shape infer_shape(const std::vector<Shape>& inputs, const Attrs& attrs) const override {
    check_input_count(name(), Definition::inputs, inputs, 2, 2);
    check_dims_positive(name(), inputs);
    check_same_shapes(name(), "a and b", inputs);
    beta_of(attrs);
    return {};
  }

  double flops(const std::vector<Shape>& inputs, const Shape&, const Attrs&) const override {
    return 3.0 * static_cast<double>(numel(inputs.at(0)));
  }

  template <class T>
  void compute(const OpArgs<T>& args) const {
    check_args(*this, args);
    const T beta = static_cast<T>(beta_of(attrs_of(args)));
    const T sum = pairwise_sum_of_pairs(args, [&](T a, T b) { return Definition::term(a, b, beta); });
    args.output[0] = sum / static_cast<T>(numel(args.input_shapes[0]));
  }
};

}  // namespace

const Op& host_op() {
  static const SmoothL1LossOp op;
  return op;
}

}  // namespace kbv::ops::smooth_l1_loss
