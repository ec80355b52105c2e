// daemon/ops/groupnorm/reference.cu — groupnorm's CUDA fp64 reference: one statistics set per
// (n, group), two passes (ops/common/reference/channel_norm_f64.hpp).
#include "ops/common/reference/channel_norm_f64.hpp"
#include "ops/common/reference/reference_call.hpp"

namespace kbv::ops::groupnorm {

void device_reference(const ReferenceCall& call) {
  reference::channel_norm_f64(ChannelSets::per_group(call.shape(0), call.integer("groups", 1)), call.input(0),
                              call.input(1), call.input(2), call.real("eps"), call.output(), call.stream);
}

}  // namespace kbv::ops::groupnorm
