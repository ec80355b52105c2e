// ops/common/convolution.hpp — what the convolutions share (conv1d/2d/3d and conv_transpose1d/2d/3d):
// their form, their attributes, the validated geometry (every op seen with three spatial axes,
// the ones it lacks of extent 1) and its cost. The host loop is ops/common/convolution_host.hpp;
// the CUDA faces are ops/common/reference/convolution_f64.hpp and
// ops/common/baseline/cudnn_convolution.hpp.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ops/common/definition.hpp"

namespace kbv::ops {

// Depth, height, width: the most spatial axes a convolution has.
constexpr int kMaxSpatialRank = 3;

// Which convolution an op is: 1, 2 or 3 spatial axes, cross-correlation (torch's convNd) or its
// adjoint (conv_transposeNd).
struct ConvolutionForm {
  int spatial_rank = 2;
  bool transposed = false;
};

// One spatial axis of one application. An axis the op lacks has extent 1 everywhere, stride 1,
// padding 0, dilation 1, output_padding 0, which changes nothing.
struct ConvolutionAxis {
  int64_t input = 1, kernel = 1, output = 1;
  int64_t stride = 1, padding = 0, dilation = 1, output_padding = 0;
  // The extent of the tensor that steps through this axis by `stride` (a convolution's output, a
  // transposed convolution's input), and of its partner (the other one), read or written at
  // position·stride + tap·dilation − padding.
  int64_t stepped(bool transposed) const { return transposed ? input : output; }
  int64_t partner(bool transposed) const { return transposed ? output : input; }
};

// One of ConvolutionAxis's fields (&ConvolutionAxis::stride, …).
using AxisField = int64_t ConvolutionAxis::*;

// A spatial attribute: its scalar name, default and least value, its per-axis overrides (default
// −1: the scalar's value) for depth, height and width, and the field of ConvolutionAxis it sets.
struct SpatialAttribute {
  std::string_view name;
  double default_value;
  int64_t min_value;
  std::array<std::string_view, kMaxSpatialRank> per_axis;
  AxisField field;
  bool transposed_only;
};

// torch.nn.ConvNd's and ConvTransposeNd's defaults, in PyTorch's argument order.
inline constexpr std::array<SpatialAttribute, 4> kSpatialAttributes{
    SpatialAttribute{"stride", 1, 1, {"stride_d", "stride_h", "stride_w"}, &ConvolutionAxis::stride, false},
    SpatialAttribute{"padding", 0, 0, {"padding_d", "padding_h", "padding_w"}, &ConvolutionAxis::padding, false},
    SpatialAttribute{"output_padding", 0, 0, {"output_padding_d", "output_padding_h", "output_padding_w"},
                     &ConvolutionAxis::output_padding, true},
    SpatialAttribute{"dilation", 1, 1, {"dilation_d", "dilation_h", "dilation_w"}, &ConvolutionAxis::dilation, false}};
inline constexpr Attribute kGroupsAttribute{"groups", 1};
// Most taps a kernel may have along one axis: KernelBench's largest are a few dozen.
inline constexpr int64_t kMaxKernelTaps = int64_t{1} << 16;
// A per-axis override left at this value takes the scalar's.
inline constexpr double kUseScalarValue = -1;

// A Definition's `attributes`: the scalars (stride, padding, [output_padding,] dilation, groups),
// then for 2-D and 3-D the per-axis overrides grouped by attribute (stride_h, stride_w,
// padding_h, …), as scripts/kernelbench/OPS.md specifies them.
template <int SpatialRank, bool Transposed>
constexpr auto convolution_attributes() {
  static_assert(SpatialRank >= 1 && SpatialRank <= kMaxSpatialRank);
  constexpr size_t kSpatial = Transposed ? 4 : 3;
  constexpr size_t kPerAxis = SpatialRank > 1 ? kSpatial * SpatialRank : 0;
  std::array<Attribute, kSpatial + 1 + kPerAxis> attributes{};
  size_t next = 0;
  for (const SpatialAttribute& spatial : kSpatialAttributes)
    if (Transposed || !spatial.transposed_only) attributes[next++] = {spatial.name, spatial.default_value};
  attributes[next++] = kGroupsAttribute;
  if (SpatialRank > 1)
    for (const SpatialAttribute& spatial : kSpatialAttributes)
      if (Transposed || !spatial.transposed_only)
        for (int axis = kMaxSpatialRank - SpatialRank; axis < kMaxSpatialRank; ++axis)
          attributes[next++] = {spatial.per_axis[static_cast<size_t>(axis)], kUseScalarValue};
  return attributes;
}

// What every convolution's Definition shares: its form, the attributes of that form, inputs
// x, weight, bias?, the tensor-core precision class. An op's Definition derives from it and
// adds name, inputs, semantics, flops_rule and pytorch.
template <int SpatialRank, bool Transposed>
struct ConvolutionDefinition {
  static constexpr OpCategory category = OpCategory::window;
  static constexpr size_t min_inputs = 2;
  static constexpr size_t max_inputs = 3;
  static constexpr ConvolutionForm form{SpatialRank, Transposed};
  // torch.nn.ConvNd's or ConvTransposeNd's defaults, then the per-axis overrides.
  static constexpr std::array attributes = convolution_attributes<SpatialRank, Transposed>();
  static constexpr PrecisionClass precision = PrecisionClass::tensor_core;
};

// A validated application: x[N, C_in, *S], weight[C_out, C_in/groups, *K] (a convolution) or
// weight[C_in, C_out/groups, *K] (a transposed one), y[N, C_out, *O].
struct ConvolutionGeometry {
  ConvolutionForm form;
  int64_t batch = 0, in_channels = 0, out_channels = 0, groups = 1;
  std::array<ConvolutionAxis, kMaxSpatialRank> axes{};  // depth, height, width

  int64_t group_in_channels() const { return in_channels / groups; }
  int64_t group_out_channels() const { return out_channels / groups; }
  int64_t input_pixels() const { return axes[0].input * axes[1].input * axes[2].input; }
  int64_t output_pixels() const { return axes[0].output * axes[1].output * axes[2].output; }
  int64_t kernel_taps() const { return axes[0].kernel * axes[1].kernel * axes[2].kernel; }
  // The op's own spatial axes: the last form.spatial_rank of `axes`.
  int first_axis() const { return kMaxSpatialRank - form.spatial_rank; }
};

// Validates an application of the op `op` of this form (input count, ranks, channels and groups,
// bias, attributes, an output of at least 1 along every axis) and throws OpError starting with
// the op's name otherwise. Attributes left out take kSpatialAttributes' defaults.
ConvolutionGeometry convolution_geometry(std::string_view op, ConvolutionForm form,
                                         const std::vector<Shape>& inputs, const Attrs& attrs);

// [N, C_out, *O] over the op's own spatial axes.
Shape convolution_output_shape(const ConvolutionGeometry& geometry);

// The positions [first, last) of the stepped tensor along one axis whose partner position
// position·stride + offset lies in [0, partner_extent); offset = tap·dilation − padding.
struct LandedRange {
  int64_t first = 0, last = 0;
  int64_t count() const { return last - first; }
};
LandedRange landed_range(const ConvolutionAxis& axis, int64_t tap, bool transposed);

// 2 per (stepped position, kernel tap, input channel of the group, output channel of the group)
// whose tap lands inside the partner tensor: a lower bound whatever the padding (taps in the
// zero padding or past the output's edge are not counted), exact when none falls outside.
double convolution_flops(const ConvolutionGeometry& geometry);

// The attribute values of one spatial attribute over the op's axes, as text: "2" when every
// axis agrees, else "2x3" (for logs and algorithm-cache keys).
std::string axes_text(const ConvolutionGeometry& geometry, AxisField field);

// What every convolution's host op (ConvolutionOp, ops/common/convolution_host.hpp) also is, so
// that code holding only an `Op&` (a device reference, a test) can ask for its form.
class ConvolutionFormed {
 public:
  virtual ~ConvolutionFormed() = default;
  virtual ConvolutionForm convolution_form() const = 0;
};

// The form of `op` when it is one of the convolutions, else nothing.
std::optional<ConvolutionForm> convolution_form_of(const Op& op);

}  // namespace kbv::ops
