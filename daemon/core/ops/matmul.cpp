// ops/matmul.cpp — matrix products: matmul (a·b), bmm (batched a·b) and linear (x·Wᵀ + b).
#include <algorithm>

#include "ops/builtin_ops.hpp"
#include "ops/op_support.hpp"

namespace kbv::builtin_ops {
namespace {

using namespace op_support;

// c[M,N] = a[M,K]·b[K,N] in i-k-j order: the innermost loop streams a row of b and a row of c,
// both contiguous, so the fp64 reference stays fast enough for the small shape sets.
template <class T>
void gemm_ikj(const T* a, const T* b, T* c, int64_t m, int64_t k, int64_t n) {
  std::fill(c, c + m * n, T(0));
  for (int64_t i = 0; i < m; ++i) {
    T* c_row = c + i * n;
    for (int64_t p = 0; p < k; ++p) {
      const T a_ip = a[i * k + p];
      const T* b_row = b + p * n;
      for (int64_t j = 0; j < n; ++j) c_row[j] += a_ip * b_row[j];
    }
  }
}

std::string inner_mismatch(std::string_view op, const Shape& a, const Shape& b,
                           std::string_view rule) {
  return std::string(op) + ": a has shape " + to_string(a) + " and b has shape " + to_string(b) +
         "; expected " + std::string(rule);
}

class MatmulOp : public TypedOp<MatmulOp> {
 public:
  std::string_view name() const override { return "matmul"; }
  size_t min_inputs() const override { return 2; }
  size_t max_inputs() const override { return 2; }
  Attrs attribute_defaults() const override { return {}; }
  PrecisionClass precision_class() const override { return PrecisionClass::tensor_core; }

  Shape infer_shape(const std::vector<Shape>& inputs, const Attrs&) const override {
    check_input_count(name(), "a, b", inputs, 2, 2);
    check_dims_positive(name(), inputs);
    check_rank(name(), "a", inputs[0], 2, "[M, K]");
    check_rank(name(), "b", inputs[1], 2, "[K, N]");
    if (inputs[0][1] != inputs[1][0])
      throw OpError(inner_mismatch(name(), inputs[0], inputs[1],
                                   "b.shape[0] == a.shape[1] (a[M, K] · b[K, N])"));
    return {inputs[0][0], inputs[1][1]};
  }

  // 2·M·N·K: one multiply-add per (i, j, k).
  double flops(const std::vector<Shape>& inputs, const Shape& output, const Attrs&) const override {
    return 2.0 * static_cast<double>(numel(output)) * static_cast<double>(inputs.at(0).at(1));
  }

  template <class T>
  void compute(const OpArgs<T>& args) const {
    check_args(*this, args);
    const Shape& a = args.input_shapes[0];
    gemm_ikj(args.inputs[0], args.inputs[1], args.output, a[0], a[1], args.output_shape[1]);
  }
};

class BmmOp : public TypedOp<BmmOp> {
 public:
  std::string_view name() const override { return "bmm"; }
  size_t min_inputs() const override { return 2; }
  size_t max_inputs() const override { return 2; }
  Attrs attribute_defaults() const override { return {}; }
  PrecisionClass precision_class() const override { return PrecisionClass::tensor_core; }

  Shape infer_shape(const std::vector<Shape>& inputs, const Attrs&) const override {
    check_input_count(name(), "a, b", inputs, 2, 2);
    check_dims_positive(name(), inputs);
    check_rank(name(), "a", inputs[0], 3, "[B, M, K]");
    check_rank(name(), "b", inputs[1], 3, "[B, K, N]");
    const Shape& a = inputs[0];
    const Shape& b = inputs[1];
    if (a[0] != b[0])
      throw OpError(inner_mismatch(name(), a, b, "equal batch sizes, b.shape[0] == a.shape[0]"));
    if (a[2] != b[1])
      throw OpError(inner_mismatch(name(), a, b,
                                   "b.shape[1] == a.shape[2] (a[B, M, K] · b[B, K, N])"));
    return {a[0], a[1], b[2]};
  }

  // 2·B·M·N·K: one multiply-add per (batch, i, j, k).
  double flops(const std::vector<Shape>& inputs, const Shape& output, const Attrs&) const override {
    return 2.0 * static_cast<double>(numel(output)) * static_cast<double>(inputs.at(0).at(2));
  }

  template <class T>
  void compute(const OpArgs<T>& args) const {
    check_args(*this, args);
    const Shape& a = args.input_shapes[0];
    const int64_t m = a[1], k = a[2], n = args.output_shape[2];
    for (int64_t batch = 0; batch < a[0]; ++batch)
      gemm_ikj(args.inputs[0] + batch * m * k, args.inputs[1] + batch * k * n,
               args.output + batch * m * n, m, k, n);
  }
};

class LinearOp : public TypedOp<LinearOp> {
 public:
  std::string_view name() const override { return "linear"; }
  size_t min_inputs() const override { return 2; }
  size_t max_inputs() const override { return 3; }
  Attrs attribute_defaults() const override { return {}; }
  PrecisionClass precision_class() const override { return PrecisionClass::tensor_core; }

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

const Op& matmul() {
  static const MatmulOp op;
  return op;
}
const Op& bmm() {
  static const BmmOp op;
  return op;
}
const Op& linear() {
  static const LinearOp op;
  return op;
}

}  // namespace kbv::builtin_ops
