// daemon/ops/maxpool3d/reference.cu — maxpool3d's CUDA fp64 reference: one thread per output over
// the geometry the host face checks (ops/common/reference/pool_f64.hpp).
#include "ops/common/pooling.hpp"
#include "ops/common/reference/pool_f64.hpp"
#include "ops/common/reference/reference_call.hpp"
#include "ops/maxpool3d/maxpool3d.hpp"

namespace kbv::ops::maxpool3d {

void device_reference(const ReferenceCall& call) {
  const pooling::PoolGeometry geometry = pool_geometry<Definition>(call.args.input_shapes, call.attrs);
  reference::pool_f64(geometry, call.input(0), call.output(), call.stream);
}

}  // namespace kbv::ops::maxpool3d
