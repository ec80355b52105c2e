// daemon/ops/adaptive_avgpool2d/reference.cu — adaptive_avgpool2d's CUDA fp64 reference: one thread
// per output over the geometry the host face checks (ops/common/reference/pool_f64.hpp).
#include "ops/adaptive_avgpool2d/adaptive_avgpool2d.hpp"
#include "ops/common/pooling.hpp"
#include "ops/common/reference/pool_f64.hpp"
#include "ops/common/reference/reference_call.hpp"

namespace kbv::ops::adaptive_avgpool2d {

void device_reference(const ReferenceCall& call) {
  const pooling::PoolGeometry geometry = pool_geometry<Definition>(call.args.input_shapes, call.attrs);
  reference::pool_f64(geometry, call.input(0), call.output(), call.stream);
}

}  // namespace kbv::ops::adaptive_avgpool2d
