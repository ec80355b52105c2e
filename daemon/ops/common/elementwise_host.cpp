// daemon/ops/common/elementwise_host.cpp — the host face of every elementwise op (each op folder
// that holds no host.cpp), over the lists daemon/ops/ops.cmake writes into the build tree.
#include "ops/common/elementwise_host.hpp"

#include "ops/elementwise_headers.inc"

#define KBV_ELEMENTWISE_OP(OP_NAME)                                    \
  namespace kbv::ops::OP_NAME {                                        \
  const ::kbv::Op& host_op() {                                         \
    return ::kbv::ops::elementwise_host_op<Definition>();              \
  }                                                                    \
  }
#include "ops/elementwise_list.inc"
#undef KBV_ELEMENTWISE_OP
