// daemon/ops/matmul/host.cpp — matmul's host face: fp64 reference and fp32 host baseline, shape
// inference and cost, over the broadcast batch of products (ops/matmul/matmul_plan.hpp).
#include "ops/common/products.hpp"
#include "ops/matmul/matmul.hpp"
#include "ops/matmul/matmul_plan.hpp"
#include "ops/op_support.hpp"

namespace kbv::ops::matmul {
namespace {

using namespace op_support;

class MatmulOp final : public DefinedOp<MatmulOp, Definition> {
 public:
  Shape infer_shape(const std::vector<Shape>& inputs, const Attrs& attrs) const override {
    return plan_matmul(name(), inputs, attrs).output;
  }

  // 2·M·N·K per product: one multiply-add per (batch, i, j, k).
  double flops(const std::vector<Shape>& inputs, const Shape& output, const Attrs& attrs) const override {
    return 2.0 * static_cast<double>(numel(output)) *
           static_cast<double>(plan_matmul(name(), inputs, attrs).k);
  }

  template <class T>
  void compute(const OpArgs<T>& args) const {
    check_args(*this, args);
    const MatmulPlan plan = plan_matmul(name(), args.input_shapes, attrs_of(args));
    for (size_t p = 0; p < plan.a_offsets.size(); ++p)
      gemm_transposed(args.inputs[0] + plan.a_offsets[p], args.inputs[1] + plan.b_offsets[p],
                      args.output + static_cast<int64_t>(p) * plan.m * plan.n, plan.m, plan.k,
                      plan.n, plan.transpose_a, plan.transpose_b);
  }
};

}  // namespace

const Op& host_op() {
  static const MatmulOp op;
  return op;
}

}  // namespace kbv::ops::matmul
