// daemon/ops/linear/host.cpp — linear's host face: fp64 reference and fp32 host baseline, shape
// inference and cost.
#include "ops/linear/linear.hpp"
#include "ops/op_support.hpp"

namespace kbv::ops::linear {
namespace {

using namespace op_support;

class LinearOp final : public DefinedOp<LinearOp, Definition> {
 public:
  // x[..., K] (any leading dims, as torch.nn.functional.linear), weight[N, K], bias[N].
  Shape infer_shape(const std::vector<Shape>& inputs, const Attrs&) const override {
    check_input_count(name(), "x, weight, bias?", inputs, 2, 3);
    check_dims_positive(name(), inputs);
    const Shape& x = inputs[0];
    const Shape& weight = inputs[1];
    if (x.empty())
      throw OpError("linear: input x is a scalar; expected shape [..., K] with K in_features");
    check_rank(name(), "weight", weight, 2, "[N, K] (out_features, in_features)");
    if (weight[1] != x.back())
      throw OpError("linear: x has shape " + to_string(x) + " and weight has shape " +
                    to_string(weight) + "; expected weight.shape[1] == x.shape[-1] (" +
                    std::to_string(x.back()) + ")");
    if (inputs.size() == 3 && inputs[2] != Shape{weight[0]})
      throw OpError("linear: bias has shape " + to_string(inputs[2]) + "; expected [" +
                    std::to_string(weight[0]) + "] (weight.shape[0])");
    Shape out = x;
    out.back() = weight[0];
    return out;
  }

  // 2·M·N·K. The bias adds nothing: an accumulator that starts from it absorbs it for free.
  double flops(const std::vector<Shape>& inputs, const Shape& output, const Attrs&) const override {
    return 2.0 * static_cast<double>(numel(output)) * static_cast<double>(inputs.at(0).back());
  }

  // Rows of x and rows of weight are both contiguous in K, so a dot product per output reads
  // both sequentially; the accumulator starts from the bias.
  template <class T>
  void compute(const OpArgs<T>& args) const {
    check_args(*this, args);
    const int64_t k = args.input_shapes[0].back();
    const int64_t n = args.input_shapes[1][0];
    const int64_t m = numel(args.input_shapes[0]) / k;
    const T* bias = args.inputs.size() > 2 ? args.inputs[2] : nullptr;
    for (int64_t i = 0; i < m; ++i) {
      const T* x_row = args.inputs[0] + i * k;
      for (int64_t j = 0; j < n; ++j) {
        const T* w_row = args.inputs[1] + j * k;
        T acc = bias ? bias[j] : T(0);
        for (int64_t p = 0; p < k; ++p) acc += x_row[p] * w_row[p];
        args.output[i * n + j] = acc;
      }
    }
  }
};

}  // namespace

const Op& host_op() {
  static const LinearOp op;
  return op;
}

}  // namespace kbv::ops::linear
