// ops/op_support.hpp — helpers shared by op implementations: input and attribute validation,
// axis normalisation, reduction geometry and numpy-style broadcasting.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ops/op.hpp"

namespace kbv::op_support {

// Throws OpError unless `inputs` holds between min_count and max_count shapes. `signature`
// lists the inputs for the message, e.g. "x, weight, bias?".
void check_input_count(std::string_view op, std::string_view signature,
                       const std::vector<Shape>& inputs, size_t min_count, size_t max_count);

// Throws OpError unless `shape` has exactly `rank` dims; `layout` names them, e.g. "[N, C, H, W]".
void check_rank(std::string_view op, std::string_view input, const Shape& shape, size_t rank,
                std::string_view layout);

// Throws OpError when any dim of any input is below 1 (kbv problems never use empty tensors,
// and means, norms and softmax are undefined over zero elements).
void check_dims_positive(std::string_view op, const std::vector<Shape>& inputs);

// An attribute value for a message: six decimals at most, trailing zeros trimmed ("2.5").
std::string format_number(double value);

// The attribute map of an application, or an empty one when the caller passed none.
const Attrs& no_attrs();
template <class T>
const Attrs& attrs_of(const OpArgs<T>& args) {
  return args.attrs ? *args.attrs : no_attrs();
}

// A real-valued attribute (must be finite).
double real_attr(std::string_view op, const Attrs& attrs, const std::string& name,
                 double fallback);
// A bound that may be infinite (clamp's min and max): any number but NaN.
double bound_attr(std::string_view op, const Attrs& attrs, const std::string& name,
                  double fallback);
// An integer-valued attribute no smaller than `min_value` (throws when fractional or smaller).
int64_t int_attr(std::string_view op, const Attrs& attrs, const std::string& name,
                 double fallback, int64_t min_value);
// The largest spatial reach a convolution or pooling may compute with: the problem spec's
// element cap (2^40, spec/problem.cpp). With every term of the output-size formulas below it,
// no product of two of them overflows int64 (a dilation of 2^53 wrapped dilation·(k−1) to 0,
// and the fp64 reference indexed outside its input: red-team).
inline constexpr int64_t kMaxSpatialExtent = int64_t{1} << 40;
// `a`·`b` when it is at most kMaxSpatialExtent; else throws OpError naming `what` ("dilation*(k-1)").
int64_t bounded_product(std::string_view op, const std::string& what, int64_t a, int64_t b);
// `value` when it is at most kMaxSpatialExtent; else throws OpError naming the attribute.
int64_t bounded_extent(std::string_view op, const std::string& name, int64_t value);
// A 0/1 flag.
bool flag_attr(std::string_view op, const Attrs& attrs, const std::string& name, double fallback);
// An axis attribute in [-rank, rank), negative counting from the end, as an index in [0, rank).
size_t axis_attr(std::string_view op, const Attrs& attrs, const std::string& name,
                 double fallback, size_t rank);

// A shape seen as [outer, extent, inner] around one axis: element (o, a, i) is at
// (o * extent + a) * inner + i. Reductions and softmax walk it with `inner` innermost, so
// every pass reads memory contiguously.
struct AxisSplit {
  int64_t outer = 1;
  int64_t extent = 1;
  int64_t inner = 1;
};
AxisSplit split_at_axis(const Shape& shape, size_t axis);
// The same around `count` adjacent axes from `axis`: extent is their product.
AxisSplit split_at_axes(const Shape& shape, size_t axis, size_t count);

// The axes a reduction folds: `count` adjacent ones from `axis`.
struct ReducedAxes {
  size_t axis = 0;
  size_t count = 1;
};
// Reads attributes `axis` and, when the op has one (count_default > 0), `count`; throws OpError
// unless count >= 1 and the axes fit in `rank`.
ReducedAxes reduced_axes(std::string_view op, const Attrs& attrs, size_t rank, double axis_default,
                         double count_default);
// `shape` with the reduced axes kept as size 1, or dropped (a full reduction gives rank 0).
Shape reduced_shape(const Shape& shape, const ReducedAxes& axes, bool keepdim);

// Broadcast result of two shapes aligned on their trailing dims (numpy rules).
Shape broadcast_shapes(std::string_view op, const Shape& a, const Shape& b);
// Element strides of `shape` when read as `out` (which it broadcasts to): 0 on broadcast dims.
// Returned with out.size() entries.
std::vector<int64_t> broadcast_strides(const Shape& shape, const Shape& out);

// Validates the arguments of one compute call against the op: input count, non-null buffers,
// and output_shape equal to what infer_shape gives (throws OpError otherwise). The check is
// cheap next to the computation and keeps a caller's mistake from becoming a buffer overrun.
template <class T>
void check_args(const Op& op, const OpArgs<T>& args) {
  if (args.inputs.size() != args.input_shapes.size())
    throw OpError(std::string(op.name()) + ": " + std::to_string(args.inputs.size()) +
                  " input buffers but " + std::to_string(args.input_shapes.size()) +
                  " input shapes; expected one shape per buffer");
  for (size_t i = 0; i < args.inputs.size(); ++i)
    if (args.inputs[i] == nullptr)
      throw OpError(std::string(op.name()) + ": input " + std::to_string(i) +
                    " is a null buffer; expected host memory holding its elements");
  if (args.output == nullptr)
    throw OpError(std::string(op.name()) + ": output is a null buffer; expected host memory");
  Shape expected = op.infer_shape(args.input_shapes, attrs_of(args));
  if (expected != args.output_shape)
    throw OpError(std::string(op.name()) + ": output shape " + to_string(args.output_shape) +
                  " does not match the inferred shape " + to_string(expected));
}

}  // namespace kbv::op_support
