// daemon/ops/conv2d/host.cpp — conv2d's host face: the convolutions' shared shape inference, cost,
// fp64 reference and fp32 host baseline (ops/common/convolution_host.hpp) for its Definition.
#include "ops/common/convolution_host.hpp"
#include "ops/conv2d/conv2d.hpp"

namespace kbv::ops::conv2d {

const Op& host_op() {
  static const ConvolutionOp<Definition> op;
  return op;
}

}  // namespace kbv::ops::conv2d
