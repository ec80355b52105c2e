// daemon/ops/common/baseline/elementwise_baseline.cu — the CUDA baseline of every elementwise op
// (each op folder that holds no host.cpp), over the lists daemon/ops/ops.cmake writes.
#include "ops/common/baseline/elementwise_step.cuh"

#include "ops/elementwise_headers.inc"

#define KBV_ELEMENTWISE_OP(OP_NAME)                                                        \
  namespace kbv::ops::OP_NAME {                                                            \
  ::std::unique_ptr<::kbv::cuda::measure::NodeStep> make_baseline_step(                    \
      const ::kbv::cuda::measure::NodeContext& node,                                       \
      ::kbv::cuda::measure::LibraryContext& context) {                                     \
    return ::kbv::ops::baseline::elementwise_step<Definition>(node, context);              \
  }                                                                                        \
  }
#include "ops/elementwise_list.inc"
#undef KBV_ELEMENTWISE_OP
