// data/reference_ops.cpp — dispatch from an op name to its fp64 device reference, the
// `device_reference` face of its folder under daemon/ops/ (over the op list ops.cmake writes).
// Shapes and attributes are validated first with the host op's own infer_shape and defaults
// (ops::make_reference_call), so both sides agree on defaults, negative axes and validation.
#include "data/reference_ops.hpp"

#include <map>
#include <string>

#include "ops/common/reference/reference_call.hpp"
#include "ops/registry.hpp"

#define KBV_OP(OP_NAME) \
  namespace kbv::ops::OP_NAME { void device_reference(const ::kbv::ops::ReferenceCall&); }
#include "ops/op_list.inc"
#undef KBV_OP

namespace kbv::cuda {
namespace {

using DeviceReference = void (*)(const ops::ReferenceCall&);

const std::map<std::string, DeviceReference, std::less<>>& device_references() {
  static const std::map<std::string, DeviceReference, std::less<>> table = {
#define KBV_OP(OP_NAME) {#OP_NAME, &::kbv::ops::OP_NAME::device_reference},
#include "ops/op_list.inc"
#undef KBV_OP
  };
  return table;
}

}  // namespace

void run_op_f64_device(std::string_view op_name, const OpArgs<double>& args,
                       const ReferenceContext& context) {
  const Op* op = find_op(op_name);
  const auto entry = device_references().find(op_name);
  // Both tables come from the same op list, so an op is in both or in neither.
  if (op == nullptr || entry == device_references().end())
    throw OpError("device reference: no op named '" + std::string(op_name) + "'");
  entry->second(ops::make_reference_call(*op, args, context));
}

}  // namespace kbv::cuda
