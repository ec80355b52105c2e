// daemon/ops/conv_transpose3d/host.cpp — conv_transpose3d's host face: the convolutions' shared
// shape inference, cost, fp64 reference and fp32 host baseline (ops/common/convolution_host.hpp)
// for its Definition.
#include "ops/common/convolution_host.hpp"
#include "ops/conv_transpose3d/conv_transpose3d.hpp"

namespace kbv::ops::conv_transpose3d {

const Op& host_op() {
  static const ConvolutionOp<Definition> op;
  return op;
}

}  // namespace kbv::ops::conv_transpose3d
