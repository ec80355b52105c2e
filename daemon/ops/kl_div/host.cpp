// daemon/ops/kl_div/host.cpp — kl_div's host face: fp64 reference and fp32 host baseline (a
// pairwise sum of the terms, ops/common/losses.hpp), shape inference and cost.
#include "ops/common/losses.hpp"
#include "ops/kl_div/kl_div.hpp"
#include "ops/op_support.hpp"

namespace kbv::ops::kl_div {
namespace {

using namespace op_support;

constexpr double kDefaultLogTarget = default_of<Definition>("log_target");

class KlDivOp final : public DefinedOp<KlDivOp, Definition> {
 public:
  Shape infer_shape(const std::vector<Shape>& inputs, const Attrs& attrs) const override {
    check_input_count(name(), Definition::inputs, inputs, 2, 2);
    check_dims_positive(name(), inputs);
    if (inputs[0].empty())
      throw OpError("kl_div: input has shape []; expected rank >= 1 (batchmean divides by "
                    "input.shape[0])");
    check_same_shapes(name(), "input and target", inputs);
    flag_attr(name(), attrs, "log_target", kDefaultLogTarget);
    return {};
  }

  double flops(const std::vector<Shape>& inputs, const Shape&, const Attrs&) const override {
    return 3.0 * static_cast<double>(numel(inputs.at(0)));
  }

  template <class T>
  void compute(const OpArgs<T>& args) const {
    check_args(*this, args);
    const bool log_target = flag_attr(name(), attrs_of(args), "log_target", kDefaultLogTarget);
    const T sum = pairwise_sum_of_pairs(args, [&](T input, T target) {
      return Definition::term(input, target, log_target);
    });
    args.output[0] = sum / static_cast<T>(args.input_shapes[0][0]);
  }
};

}  // namespace

const Op& host_op() {
  static const KlDivOp op;
  return op;
}

}  // namespace kbv::ops::kl_div
