// ops/common/reference/reference_call.hpp — one op application as an op's CUDA fp64 reference
// receives it (`void device_reference(const ReferenceCall&)` in its reference.cu): device
// buffers already checked against the host op's infer_shape, attributes complete (the op's
// defaults overridden by the application's), the stream and the reference's cuBLAS handle.
// The face enqueues its work on `stream` and throws CudaError when CUDA or cuBLAS fails.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "data/reference_context.hpp"
#include "ops/op_support.hpp"

namespace kbv::ops {

struct ReferenceCall {
  const Op& op;
  const OpArgs<double>& args;
  Attrs attrs;
  cudaStream_t stream;
  const cuda::ReferenceContext& context;

  std::string_view name() const { return op.name(); }
  // Device pointer to input i, or nullptr for an optional input the application left out.
  const double* input(size_t i) const { return i < args.inputs.size() ? args.inputs[i] : nullptr; }
  const Shape& shape(size_t i) const { return args.input_shapes.at(i); }
  double* output() const { return args.output; }
  const Shape& output_shape() const { return args.output_shape; }
  double real(const std::string& attr) const { return op_support::real_attr(name(), attrs, attr, 0); }
  int64_t integer(const std::string& attr, int64_t min_value) const {
    return op_support::int_attr(name(), attrs, attr, 0, min_value);
  }
  // Input 0 seen as [outer, extent, inner] around the axis attribute `attr`.
  op_support::AxisSplit split_at(const std::string& attr) const {
    const Shape& x = shape(0);
    return op_support::split_at_axis(x, op_support::axis_attr(name(), attrs, attr, 0, x.size()));
  }
  // Input 0 seen as [outer, extent, inner] around the axes a reduction folds: `count` of them
  // from `axis` when the op has a count attribute, else `axis` alone.
  op_support::AxisSplit reduced_split() const {
    const Shape& x = shape(0);
    const op_support::ReducedAxes axes =
        op_support::reduced_axes(name(), attrs, x.size(), 0, attrs.count("count") ? 1 : 0);
    return op_support::split_at_axes(x, axes.axis, axes.count);
  }
};

// The call for `op` on `args` (device buffers): the op's defaults overridden by args.attrs,
// checked like the host op (one shape per buffer, no null buffer, the output shape its
// infer_shape gives). Throws OpError naming the problem.
ReferenceCall make_reference_call(const Op& op, const OpArgs<double>& args,
                                  const cuda::ReferenceContext& context);

}  // namespace kbv::ops
