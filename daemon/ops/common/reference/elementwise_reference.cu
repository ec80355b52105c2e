// daemon/ops/common/reference/elementwise_reference.cu — the CUDA fp64 reference of every
// elementwise op (each op folder that holds no host.cpp), over the lists daemon/ops/ops.cmake
// writes.
#include "ops/common/reference/elementwise_f64.cuh"

#include "ops/elementwise_headers.inc"

#define KBV_ELEMENTWISE_OP(OP_NAME)                                    \
  namespace kbv::ops::OP_NAME {                                        \
  void device_reference(const ::kbv::ops::ReferenceCall& call) {       \
    ::kbv::ops::reference::run_elementwise<Definition>(call);          \
  }                                                                    \
  }
#include "ops/elementwise_list.inc"
#undef KBV_ELEMENTWISE_OP
