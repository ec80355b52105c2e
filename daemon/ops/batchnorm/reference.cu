// daemon/ops/batchnorm/reference.cu — batchnorm's CUDA fp64 reference: one statistics set per
// channel over the batch, two passes (ops/common/reference/channel_norm_f64.hpp).
#include "ops/common/reference/channel_norm_f64.hpp"
#include "ops/common/reference/reference_call.hpp"

namespace kbv::ops::batchnorm {

void device_reference(const ReferenceCall& call) {
  reference::channel_norm_f64(ChannelSets::per_channel_over_batch(call.shape(0)), call.input(0),
                              call.input(1), call.input(2), call.real("eps"), call.output(), call.stream);
}

}  // namespace kbv::ops::batchnorm
