// ops/common/pooling.hpp — the host face every pooling op shares (maxpool1d/2d/3d,
// avgpool1d/2d/3d, adaptive_avgpool2d/3d): the window geometry from the input's shape and the
// attributes, checked as PyTorch checks them; shape inference; flops(); and the loop that is
// both the fp64 reference and the fp32 host baseline (ops/common/pool_window.hpp computes each
// output). The CUDA faces build the same geometry with pool_geometry<Definition>(). A pooling
// op's Definition derives from one of ops/common/pool_definition.hpp's.
#pragma once

#include <string_view>
#include <vector>

#include "ops/common/pool_definition.hpp"
#include "ops/common/pool_window.hpp"
#include "ops/op_support.hpp"

namespace kbv::ops {

// Most output positions a pooling may have along one axis (KernelBench's largest are thousands):
// pool_flops walks each of them once.
inline constexpr int64_t kMaxPooledPositions = int64_t{1} << 26;

// The geometry of `op` on `inputs` ([N, C, spatial…]); attributes absent from `attrs` take
// `defaults`. Throws OpError naming the attribute or the input and the fix.
pooling::PoolGeometry make_pool_geometry(std::string_view op, const PoolSpec& spec,
                                         const std::vector<Shape>& inputs, const Attrs& attrs,
                                         const Attrs& defaults);

template <class Definition>
pooling::PoolGeometry pool_geometry(const std::vector<Shape>& inputs, const Attrs& attrs) {
  static const Attrs defaults = attribute_defaults_of<Definition>();
  return make_pool_geometry(Definition::name, Definition::pool, inputs, attrs, defaults);
}

// [N, C, out…] of a geometry made from input x.
Shape pooled_shape(const pooling::PoolGeometry& geometry, const Shape& x, int spatial_axes);

// flops() of a pooling op, a lower bound for any algorithm. Max: one comparison per output whose
// window holds at least two input elements (a sliding-window max shares comparisons between
// overlapping windows, so per-tap counts would not be a bound). Average: one divide per output
// (sliding sums share their adds). Adaptive average: numel(x) (every element is added at
// least once, each output divided once).
double pool_flops(const pooling::PoolGeometry& geometry);

// An op folder's host.cpp returns a PoolHostOp<Definition> from host_op().
template <class Definition>
class PoolHostOp final : public DefinedOp<PoolHostOp<Definition>, Definition> {
 public:
  Shape infer_shape(const std::vector<Shape>& inputs, const Attrs& attrs) const override {
    const pooling::PoolGeometry geometry =
        pool_geometry<Definition>(inputs, attrs);  // checks the input count
    return pooled_shape(geometry, inputs[0], Definition::pool.spatial_axes);
  }

  double flops(const std::vector<Shape>& inputs, const Shape&, const Attrs& attrs) const override {
    return pool_flops(pool_geometry<Definition>(inputs, attrs));
  }

  template <class T>
  void compute(const OpArgs<T>& args) const {
    op_support::check_args(*this, args);
    const pooling::PoolGeometry g = pool_geometry<Definition>(args.input_shapes, op_support::attrs_of(args));
    constexpr pooling::PoolKind kind = Definition::pool.kind;
    for (int64_t index = 0; index < g.outputs(); ++index)
      args.output[index] = pooling::pooled_value<kind>(g, args.inputs[0], index);
  }
};

}  // namespace kbv::ops
