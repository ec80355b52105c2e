// daemon/ops/triplet_margin_loss/host.cpp — triplet_margin_loss's host face: fp64 reference and
// fp32 host baseline (pairwise sums along D and over the rows, ops/common/losses.hpp), shape
// inference and cost.
#include "ops/common/losses.hpp"
#include "ops/op_support.hpp"
#include "ops/triplet_margin_loss/triplet_margin_loss.hpp"

namespace kbv::ops::triplet_margin_loss {
namespace {

using namespace op_support;

struct Params {
  double margin, p, eps;
  bool swap;
};

Params params_of(const Attrs& attrs) {
  const std::string_view op = Definition::name;
  Params params{real_attr(op, attrs, "margin", default_of<Definition>("margin")),
                real_attr(op, attrs, "p", default_of<Definition>("p")),
                real_attr(op, attrs, "eps", default_of<Definition>("eps")),
                flag_attr(op, attrs, "swap", default_of<Definition>("swap"))};
  if (!(params.margin > 0))
    throw OpError("triplet_margin_loss: attribute margin is " + format_number(params.margin) +
                  "; expected margin > 0 (PyTorch's rule)");
  if (!(params.p > 0))
    throw OpError("triplet_margin_loss: attribute p is " + format_number(params.p) +
                  "; expected p > 0 (the norm's order)");
  return params;
}

class TripletMarginLossOp final : public DefinedOp<TripletMarginLossOp, Definition> {
 public:
  Shape infer_shape(const std::vector<Shape>& inputs, const Attrs& attrs) const override {
    check_input_count(name(), Definition::inputs, inputs, 3, 3);
    check_dims_positive(name(), inputs);
    check_rank(name(), "anchor", inputs[0], 2, "[N, D]");
    check_same_shapes(name(), "anchor, positive and negative", inputs);
    params_of(attrs);
    return {};
  }

  double flops(const std::vector<Shape>& inputs, const Shape&, const Attrs&) const override {
    return 6.0 * static_cast<double>(numel(inputs.at(0)));
  }

  template <class T>
  void compute(const OpArgs<T>& args) const {
    check_args(*this, args);
    const Params params = params_of(attrs_of(args));
    const T p = static_cast<T>(params.p), eps = static_cast<T>(params.eps);
    const T margin = static_cast<T>(params.margin);
    const int64_t rows = args.input_shapes[0][0], d = args.input_shapes[0][1];
    const auto distance = [&](const T* x, const T* y) {
      const T sum = pairwise_sum<T>(0, d, [&](int64_t j) { return Definition::norm_term(x[j] - y[j] + eps, p); });
      return Definition::norm_of(sum, p);
    };
    const T total = pairwise_sum<T>(0, rows, [&](int64_t n) {
      const T* a = args.inputs[0] + n * d;
      const T* pos = args.inputs[1] + n * d;
      const T* neg = args.inputs[2] + n * d;
      const T d_pn = params.swap ? distance(pos, neg) : T(0);
      return Definition::row_loss(distance(a, pos), distance(a, neg), d_pn, margin, params.swap);
    });
    args.output[0] = total / static_cast<T>(rows);
  }
};

}  // namespace

const Op& host_op() {
  static const TripletMarginLossOp op;
  return op;
}

}  // namespace kbv::ops::triplet_margin_loss
