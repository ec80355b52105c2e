// daemon/ops/common/convolution.cpp — the convolutions' validated geometry, output shape and cost
// (ops/common/convolution.hpp).
#include "ops/common/convolution.hpp"

#include <algorithm>

#include "ops/op_support.hpp"

namespace kbv::ops {
namespace {

using op_support::bounded_extent;
using op_support::bounded_product;
using op_support::int_attr;

// Layouts for messages, by spatial rank (index 1, 2, 3).
constexpr std::array<std::string_view, 4> kInputLayout{"", "[N, C, L]", "[N, C, H, W]", "[N, C, D, H, W]"};
constexpr std::array<std::string_view, 4> kWeightLayout{"", "[O, C/groups, K]", "[O, C/groups, KH, KW]",
                                                        "[O, C/groups, KD, KH, KW]"};
constexpr std::array<std::string_view, 4> kTransposedWeightLayout{"", "[C, O/groups, K]", "[C, O/groups, KH, KW]",
                                                                  "[C, O/groups, KD, KH, KW]"};

class GeometryReader {
 public:
  GeometryReader(std::string_view op, ConvolutionForm form, const std::vector<Shape>& inputs, const Attrs& attrs)
      : op_(op), form_(form), inputs_(inputs), attrs_(attrs) {
    geometry_.form = form;
  }

  ConvolutionGeometry read() {
    check_shapes();
    read_attributes();
    if (form_.transposed)
      read_transposed_channels();
    else
      read_channels();
    read_extents();
    return geometry_;
  }

 private:
  std::string prefix() const { return std::string(op_) + ": "; }
  int first_axis() const { return kMaxSpatialRank - form_.spatial_rank; }

  // The spatial dims of a shape as "4x5".
  std::string extents_text(const Shape& shape) const {
    std::string text;
    for (size_t d = 2; d < shape.size(); ++d) text += (text.empty() ? "" : "x") + std::to_string(shape[d]);
    return text;
  }

  void check_shapes() {
    op_support::check_input_count(op_, "x, weight, bias?", inputs_, 2, 3);
    op_support::check_dims_positive(op_, inputs_);
    const auto rank = static_cast<size_t>(form_.spatial_rank);
    op_support::check_rank(op_, "x", inputs_[0], rank + 2, kInputLayout.at(rank));
    op_support::check_rank(op_, "weight", inputs_[1], rank + 2,
                           (form_.transposed ? kTransposedWeightLayout : kWeightLayout).at(rank));
  }

  // Scalars, then the per-axis overrides (−1: the scalar's value) of a 2-D or 3-D op.
  void read_attributes() {
    for (const SpatialAttribute& spatial : kSpatialAttributes) {
      if (spatial.transposed_only && !form_.transposed) continue;
      const std::string scalar_name(spatial.name);
      const int64_t scalar = int_attr(op_, attrs_, scalar_name, spatial.default_value, spatial.min_value);
      for (int axis = first_axis(); axis < kMaxSpatialRank; ++axis) {
        const auto index = static_cast<size_t>(axis);
        int64_t value = scalar;
        std::string source = scalar_name;
        if (form_.spatial_rank > 1) {
          const std::string name(spatial.per_axis[index]);
          const int64_t override_value = int_attr(op_, attrs_, name, kUseScalarValue, -1);
          if (override_value != kUseScalarValue) {
            if (override_value < spatial.min_value)
              throw OpError(prefix() + "attribute " + name + " is " + std::to_string(override_value) +
                            "; expected an integer >= " + std::to_string(spatial.min_value) + ", or -1 for " +
                            scalar_name + "'s value");
            value = override_value;
            source = name;
          }
        }
        geometry_.axes[index].*spatial.field = value;
        if (spatial.field == &ConvolutionAxis::output_padding) output_padding_source_[index] = source;
      }
    }
    geometry_.groups =
        int_attr(op_, attrs_, std::string(kGroupsAttribute.name), kGroupsAttribute.default_value, 1);
  }

  // "x has 4 channels, not divisible by groups = 3; …" for x, the same for weight's output channels.
  std::string not_divisible(std::string_view what, int64_t channels) const {
    const bool input = what == "x";
    return prefix() + std::string(what) + " has " + std::to_string(channels) +
           (input ? " channels" : " output channels") + ", not divisible by groups = " +
           std::to_string(geometry_.groups) + "; expected " + (input ? "C" : "O") + " to be a multiple of groups";
  }

  void check_bias() const {
    if (inputs_.size() == 3 && inputs_[2] != Shape{geometry_.out_channels})
      throw OpError(prefix() + "bias has shape " + to_string(inputs_[2]) + "; expected [" +
                    std::to_string(geometry_.out_channels) + "] (" +
                    (form_.transposed ? "weight.shape[1]·groups" : "weight.shape[0]") + ")");
  }

  // x[N, C, *S], weight[O, C/groups, *K].
  void read_channels() {
    const Shape& x = inputs_[0];
    const Shape& weight = inputs_[1];
    geometry_.batch = x[0], geometry_.in_channels = x[1], geometry_.out_channels = weight[0];
    if (geometry_.in_channels % geometry_.groups != 0) throw OpError(not_divisible("x", geometry_.in_channels));
    if (geometry_.out_channels % geometry_.groups != 0) throw OpError(not_divisible("weight", geometry_.out_channels));
    if (weight[1] != geometry_.group_in_channels())
      throw OpError(prefix() + "weight has shape " + to_string(weight) + " for x of shape " + to_string(x) +
                    " and groups = " + std::to_string(geometry_.groups) + "; expected weight.shape[1] == " +
                    std::to_string(geometry_.group_in_channels()) + " (C/groups)");
    check_bias();
  }

  // x[N, C, *S], weight[C, O/groups, *K].
  void read_transposed_channels() {
    const Shape& x = inputs_[0];
    const Shape& weight = inputs_[1];
    geometry_.batch = x[0], geometry_.in_channels = x[1];
    if (geometry_.in_channels % geometry_.groups != 0) throw OpError(not_divisible("x", geometry_.in_channels));
    // After the divisibility check, which bounds groups by the channels (review: a huge groups
    // overflowed this product before the check could refuse it).
    geometry_.out_channels = weight[1] * geometry_.groups;
    if (weight[0] != geometry_.in_channels)
      throw OpError(prefix() + "weight has shape " + to_string(weight) + " for x of shape " + to_string(x) +
                    "; expected weight.shape[0] == " + std::to_string(geometry_.in_channels) + " (x's channels)");
    check_bias();
  }

  // Spatial extents and output sizes (PyTorch's formulas), each at least 1.
  void read_extents() {
    const Shape& x = inputs_[0];
    const Shape& weight = inputs_[1];
    bool fits = true;
    for (int axis = first_axis(); axis < kMaxSpatialRank; ++axis) {
      ConvolutionAxis& a = geometry_.axes[static_cast<size_t>(axis)];
      const auto dim = static_cast<size_t>(axis - first_axis() + 2);
      a.input = x[dim];
      a.kernel = weight[dim];
      // convolution_flops walks every tap of an axis at each catalog load (review: a kernel of
      // 2^40 taps took hours there); no real convolution comes near this.
      if (a.kernel > kMaxKernelTaps)
        throw OpError(prefix() + "a kernel of " + std::to_string(a.kernel) + " taps along one axis is beyond " + std::to_string(kMaxKernelTaps) +
                      "; expected a convolution's kernel");
      bounded_extent(op_, "padding", a.padding);
      bounded_extent(op_, "stride", a.stride);
      const int64_t reach = bounded_product(op_, "dilation*(k-1)", a.dilation, a.kernel - 1);
      if (form_.transposed) {
        check_output_padding(a, output_padding_source_[static_cast<size_t>(axis)]);
        a.output = bounded_product(op_, "(size-1)*stride", a.input - 1, a.stride) - 2 * a.padding + reach + a.output_padding + 1;
      } else {
        const int64_t span = a.input + 2 * a.padding - reach - 1;
        a.output = span < 0 ? 0 : span / a.stride + 1;
      }
      fits = fits && a.output >= 1;
    }
    if (fits) return;
    const std::string kernel = extents_text(weight), input = extents_text(x);
    const std::string dilation = axes_text(geometry_, &ConvolutionAxis::dilation);
    const std::string padding = axes_text(geometry_, &ConvolutionAxis::padding);
    if (!form_.transposed)
      throw OpError(prefix() + "kernel " + kernel + " with dilation " + dilation + " does not fit input " + input +
                    " padded by " + padding + "; expected dilation*(k-1)+1 <= size + 2*padding along every axis");
    std::string output;
    for (int axis = first_axis(); axis < kMaxSpatialRank; ++axis)
      output += (output.empty() ? "" : "x") + std::to_string(geometry_.axes[static_cast<size_t>(axis)].output);
    throw OpError(prefix() + "output size " + output + " for input " + input + ", kernel " + kernel + ", stride " +
                  axes_text(geometry_, &ConvolutionAxis::stride) + ", padding " + padding + " and dilation " + dilation +
                  " is below 1; expected (size-1)*stride - 2*padding + dilation*(k-1) + output_padding + 1 >= 1 along "
                  "every axis");
  }

  // PyTorch's rule (ConvParams::is_output_padding_big): output_padding < stride or < dilation.
  void check_output_padding(const ConvolutionAxis& a, const std::string& source) const {
    if (a.output_padding < std::max(a.stride, a.dilation)) return;
    throw OpError(prefix() + "attribute " + source + " is " + std::to_string(a.output_padding) + " with stride " +
                  std::to_string(a.stride) + " and dilation " + std::to_string(a.dilation) +
                  "; expected output_padding < max(stride, dilation), as PyTorch requires");
  }

  std::string_view op_;
  ConvolutionForm form_;
  const std::vector<Shape>& inputs_;
  const Attrs& attrs_;
  ConvolutionGeometry geometry_;
  std::array<std::string, kMaxSpatialRank> output_padding_source_;
};

}  // namespace

ConvolutionGeometry convolution_geometry(std::string_view op, ConvolutionForm form, const std::vector<Shape>& inputs,
                                         const Attrs& attrs) {
  return GeometryReader(op, form, inputs, attrs).read();
}

Shape convolution_output_shape(const ConvolutionGeometry& geometry) {
  Shape shape{geometry.batch, geometry.out_channels};
  for (int axis = geometry.first_axis(); axis < kMaxSpatialRank; ++axis)
    shape.push_back(geometry.axes[static_cast<size_t>(axis)].output);
  return shape;
}

LandedRange landed_range(const ConvolutionAxis& axis, int64_t tap, bool transposed) {
  const int64_t offset = tap * axis.dilation - axis.padding;
  const int64_t count = axis.stepped(transposed), partner = axis.partner(transposed);
  // ceil(-offset / stride) for the first, floor((partner - 1 - offset) / stride) for the last.
  const int64_t first = offset >= 0 ? 0 : (-offset + axis.stride - 1) / axis.stride;
  const int64_t top = partner - 1 - offset;
  const int64_t last = top < 0 ? 0 : std::min(count, top / axis.stride + 1);
  return {first, std::max(first, last)};
}

double convolution_flops(const ConvolutionGeometry& geometry) {
  // A tap lands iff it lands along every axis, so the landed (position, tap) pairs factor into
  // one sum per axis.
  double landed = 1;
  for (const ConvolutionAxis& axis : geometry.axes) {
    double axis_pairs = 0;
    for (int64_t tap = 0; tap < axis.kernel; ++tap)
      axis_pairs += static_cast<double>(landed_range(axis, tap, geometry.form.transposed).count());
    landed *= axis_pairs;
  }
  return 2.0 * static_cast<double>(geometry.batch * geometry.groups) *
         static_cast<double>(geometry.group_in_channels() * geometry.group_out_channels()) * landed;
}

std::string axes_text(const ConvolutionGeometry& geometry, AxisField field) {
  const int first = geometry.first_axis();
  const int64_t value = geometry.axes[static_cast<size_t>(first)].*field;
  bool uniform = true;
  std::string text;
  for (int axis = first; axis < kMaxSpatialRank; ++axis) {
    const int64_t v = geometry.axes[static_cast<size_t>(axis)].*field;
    uniform = uniform && v == value;
    text += (text.empty() ? "" : "x") + std::to_string(v);
  }
  return uniform ? std::to_string(value) : text;
}

std::optional<ConvolutionForm> convolution_form_of(const Op& op) {
  if (const auto* formed = dynamic_cast<const ConvolutionFormed*>(&op)) return formed->convolution_form();
  return std::nullopt;
}

}  // namespace kbv::ops
