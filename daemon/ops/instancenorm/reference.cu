// daemon/ops/instancenorm/reference.cu — instancenorm's CUDA fp64 reference: one statistics set
// per (n, c), two passes (ops/common/reference/channel_norm_f64.hpp).
#include "ops/common/reference/channel_norm_f64.hpp"
#include "ops/common/reference/reference_call.hpp"

namespace kbv::ops::instancenorm {

void device_reference(const ReferenceCall& call) {
  const Shape& x = call.shape(0);
  reference::channel_norm_f64(ChannelSets::per_group(x, x.at(1)), call.input(0), call.input(1), call.input(2),
                              call.real("eps"), call.output(), call.stream);
}

}  // namespace kbv::ops::instancenorm
