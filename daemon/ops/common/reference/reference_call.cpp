// daemon/ops/common/reference/reference_call.cpp — a ReferenceCall from an op application on device
// buffers: the host op's defaults merged in and its shape inference checked.
#include "ops/common/reference/reference_call.hpp"

namespace kbv::ops {

ReferenceCall make_reference_call(const Op& op, const OpArgs<double>& args,
                                  const cuda::ReferenceContext& context) {
  Attrs attrs = op.attribute_defaults();
  if (args.attrs != nullptr) {
    for (const auto& [name, value] : *args.attrs) attrs[name] = value;
  }
  const std::string prefix = std::string(op.name()) + " (device reference): ";
  if (args.inputs.size() != args.input_shapes.size())
    throw OpError(prefix + std::to_string(args.inputs.size()) + " input buffers but " +
                  std::to_string(args.input_shapes.size()) + " input shapes; expected one each");
  for (size_t i = 0; i < args.inputs.size(); ++i)
    if (args.inputs[i] == nullptr)
      throw OpError(prefix + "input " + std::to_string(i) + " is a null device pointer");
  if (args.output == nullptr) throw OpError(prefix + "output is a null device pointer");
  const Shape expected = op.infer_shape(args.input_shapes, attrs);
  if (expected != args.output_shape)
    throw OpError(prefix + "output shape " + to_string(args.output_shape) +
                  " does not match the inferred shape " + to_string(expected));
  return {op, args, std::move(attrs), context.stream(), context};
}

}  // namespace kbv::ops
