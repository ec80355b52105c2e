// daemon/ops/triu/reference.cu — triu's CUDA fp64 reference
// (ops/common/reference/triangle_f64.hpp).
#include "ops/common/reference/reference_call.hpp"
#include "ops/common/reference/triangle_f64.hpp"

#include <cstdint>
#include <limits>

namespace kbv::ops::triu {

void device_reference(const ReferenceCall& call) {
  const Shape& shape = call.shape(0);
  reference::triangle_f64(false, call.integer("diagonal", std::numeric_limits<int32_t>::min()),
                          op_support::bound_attr("triu", call.attrs, "fill", 0), call.input(0),
                          call.output(), numel(shape), shape[shape.size() - 2], shape.back(), call.stream);
}

}  // namespace kbv::ops::triu
