// daemon/ops/common/pooling.cpp — the pooling ops' geometry from shapes and attributes, checked
// as PyTorch's pool{1,2,3}d shape checks do, and their output shapes and costs.
#include "ops/common/pooling.hpp"

#include <limits>
#include <string>

namespace kbv::ops {
namespace {

using namespace op_support;
using pooling::PoolAxis;
using pooling::PoolGeometry;
using pooling::PoolKind;

// Per-axis attribute suffixes by spatial axis (D, H, W); 2-D pools use the last two.
constexpr const char* kAxisSuffixes[pooling::kSpatialAxes] = {"_d", "_h", "_w"};
constexpr const char* kAxisNames[pooling::kSpatialAxes] = {"D", "H", "W"};
constexpr auto kUseScalar = static_cast<int64_t>(pool_attribute::kUseScalar);

std::string layout_of(int spatial_axes) {
  switch (spatial_axes) {
    case 1: return "[N, C, L]";
    case 2: return "[N, C, H, W]";
    default: return "[N, C, D, H, W]";
  }
}

class AttrReader {
 public:
  AttrReader(std::string_view op, const Attrs& attrs, const Attrs& defaults, int spatial_axes)
      : op_(op), attrs_(attrs), defaults_(defaults), spatial_axes_(spatial_axes) {}

  int64_t integer(const std::string& name, int64_t min_value) const {
    return int_attr(op_, attrs_, name, defaults_.at(name), min_value);
  }
  bool flag(const std::string& name) const { return flag_attr(op_, attrs_, name, defaults_.at(name)); }

  // `name` along spatial axis `axis` (0 D, 1 H, 2 W): its override `<name>_<axis>` unless that
  // is −1 (or the pool is 1-D and has none), else `scalar`.
  int64_t along(const std::string& name, int64_t scalar, int axis, int64_t min_value) const {
    if (spatial_axes_ == 1) return scalar;
    const std::string key = name + kAxisSuffixes[axis];
    const int64_t value = integer(key, std::numeric_limits<int64_t>::min());
    if (value == kUseScalar) return scalar;
    if (value < min_value)
      throw OpError(std::string(op_) + ": attribute " + key + " is " + std::to_string(value) +
                    "; expected -1 (the value of " + name +
                    ") or an integer >= " + std::to_string(min_value));
    return value;
  }

 private:
  std::string_view op_;
  const Attrs& attrs_;
  const Attrs& defaults_;
  int spatial_axes_;
};

// PyTorch's pooling_output_shape: floor or ceil of (in + 2p − d(k−1) − 1)/s, plus one; with
// ceil_mode a last window that would start in the right padding is dropped. 0 when the window
// does not fit.
int64_t sliding_output_size(const PoolAxis& a, bool ceil_mode) {
  const int64_t span =
      a.in + 2 * a.padding - a.dilation * (a.kernel - 1) - 1 + (ceil_mode ? a.stride - 1 : 0);
  if (span < 0) return 0;  // floor(span / stride) + 1 <= 0
  int64_t out = span / a.stride + 1;
  if (ceil_mode && (out - 1) * a.stride >= a.in + a.padding) --out;
  return out;
}

void set_sliding_axis(std::string_view op, const PoolSpec& spec, const AttrReader& read, int axis,
                      PoolAxis& a) {
  a.kernel = read.along("kernel", read.integer("kernel", 1), axis, 1);
  const int64_t stride = read.along("stride", read.integer("stride", 0), axis, 0);
  a.stride = stride == 0 ? a.kernel : stride;  // PyTorch: stride defaults to kernel_size
  a.padding = read.along("padding", read.integer("padding", 0), axis, 0);
  a.dilation = spec.kind == PoolKind::max ? read.along("dilation", read.integer("dilation", 1), axis, 1) : 1;
  bounded_extent(op, "kernel", a.kernel);
  bounded_extent(op, "stride", a.stride);
  bounded_extent(op, "padding", a.padding);
  bounded_product(op, "dilation*(kernel-1)", a.dilation, a.kernel - 1);
  const std::string along = spec.spatial_axes == 1 ? "" : std::string(" along ") + kAxisNames[axis];
  // PyTorch's pool{2,3}d_shape_check compares padding with kernel/2 (integer division), not
  // with the dilated extent.
  if (a.padding > a.kernel / 2)
    throw OpError(std::string(op) + ": padding " + std::to_string(a.padding) + " with kernel " +
                  std::to_string(a.kernel) + along + "; expected padding <= kernel/2 (" +
                  std::to_string(a.kernel / 2) + "), as PyTorch requires");
  a.out = sliding_output_size(a, read.flag("ceil_mode"));
  // pool_flops walks every output position of an axis at each catalog load (review: 2^40 of them
  // took hours there).
  if (a.out > kMaxPooledPositions)
    throw OpError(std::string(op) + ": " + std::to_string(a.out) + " output positions" + along + " are beyond " +
                  std::to_string(kMaxPooledPositions) + "; expected a pooling's output");
  if (a.out < 1)
    throw OpError(std::string(op) + ": kernel " + std::to_string(a.kernel) + " with dilation " +
                  std::to_string(a.dilation) + " does not fit the input's size " + std::to_string(a.in) +
                  along + " padded by " + std::to_string(a.padding) +
                  "; expected dilation*(kernel-1)+1 <= size + 2*padding along every spatial axis");
}

}  // namespace

PoolGeometry make_pool_geometry(std::string_view op, const PoolSpec& spec, const std::vector<Shape>& inputs,
                                const Attrs& attrs, const Attrs& defaults) {
  check_input_count(op, "x", inputs, 1, 1);
  check_dims_positive(op, inputs);
  const Shape& x = inputs[0];
  check_rank(op, "x", x, static_cast<size_t>(2 + spec.spatial_axes), layout_of(spec.spatial_axes));
  const AttrReader read(op, attrs, defaults, spec.spatial_axes);
  PoolGeometry g;
  g.kind = spec.kind;
  g.planes = x[0] * x[1];
  const int first = pooling::kSpatialAxes - spec.spatial_axes;
  if (spec.kind == PoolKind::adaptive_average) {
    const int64_t out = read.integer("output_size", 1);
    for (int axis = first; axis < pooling::kSpatialAxes; ++axis) {
      g.axes[axis].in = x[static_cast<size_t>(2 + axis - first)];
      g.axes[axis].out = out;
    }
    return g;
  }
  if (spec.kind == PoolKind::average) g.count_include_pad = read.flag("count_include_pad");
  for (int axis = first; axis < pooling::kSpatialAxes; ++axis) {
    g.axes[axis].in = x[static_cast<size_t>(2 + axis - first)];
    set_sliding_axis(op, spec, read, axis, g.axes[axis]);
  }
  return g;
}

Shape pooled_shape(const PoolGeometry& geometry, const Shape& x, int spatial_axes) {
  Shape out = {x.at(0), x.at(1)};
  for (int axis = pooling::kSpatialAxes - spatial_axes; axis < pooling::kSpatialAxes; ++axis)
    out.push_back(geometry.axes[axis].out);
  return out;
}

double pool_flops(const PoolGeometry& g) {
  if (g.kind == PoolKind::average) return static_cast<double>(g.outputs());
  if (g.kind == PoolKind::adaptive_average) return static_cast<double>(g.planes * g.in_plane());
  // A window's taps inside the input are the product of each axis' count: at least two unless
  // an axis has none or every axis has one.
  double with_taps = 1, with_one_tap = 1;
  for (const PoolAxis& a : g.axes) {
    double one = 0, several = 0;
    for (int64_t o = 0; o < a.out; ++o) {
      const int64_t taps = pooling::sliding_taps(a, o).count;
      one += taps == 1;
      several += taps >= 2;
    }
    with_taps *= one + several;
    with_one_tap *= one;
  }
  return static_cast<double>(g.planes) * (with_taps - with_one_tap);
}

}  // namespace kbv::ops
