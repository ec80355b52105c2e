// daemon/ops/matmul/host.cpp — matmul's host face: fp64 reference and fp32 host baseline, shape
// inference and cost.
#include "ops/common/products.hpp"
#include "ops/matmul/matmul.hpp"
#include "ops/op_support.hpp"

namespace kbv::ops::matmul {
namespace {

using namespace op_support;

class MatmulOp final : public DefinedOp<MatmulOp, Definition> {
 public:
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

}  // namespace

const Op& host_op() {
  static const MatmulOp op;
  return op;
}

}  // namespace kbv::ops::matmul
