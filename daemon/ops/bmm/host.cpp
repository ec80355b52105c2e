// daemon/ops/bmm/host.cpp — bmm's host face: fp64 reference and fp32 host baseline, shape inference
// and cost.
#include "ops/bmm/bmm.hpp"
#include "ops/common/products.hpp"
#include "ops/op_support.hpp"

namespace kbv::ops::bmm {
namespace {

using namespace op_support;

class BmmOp final : public DefinedOp<BmmOp, Definition> {
 public:
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

}  // namespace

const Op& host_op() {
  static const BmmOp op;
  return op;
}

}  // namespace kbv::ops::bmm
