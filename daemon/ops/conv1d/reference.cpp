// daemon/ops/conv1d/reference.cpp — conv1d's CUDA fp64 reference: the convolutions' im2col in
// chunks and cuBLAS Dgemm (ops/common/reference/convolution_f64.hpp).
#include "ops/common/reference/convolution_f64.hpp"

namespace kbv::ops::conv1d {

void device_reference(const ReferenceCall& call) {
  reference::convolution_f64(call, reference::kConvColumnBudgetBytes);
}

}  // namespace kbv::ops::conv1d
