// daemon/ops/conv1d/host.cpp — conv1d's host face: the convolutions' shared shape inference, cost,
// fp64 reference and fp32 host baseline (ops/common/convolution_host.hpp) for its Definition.
#include "ops/common/convolution_host.hpp"
#include "ops/conv1d/conv1d.hpp"

namespace kbv::ops::conv1d {

const Op& host_op() {
  static const ConvolutionOp<Definition> op;
  return op;
}

}  // namespace kbv::ops::conv1d
