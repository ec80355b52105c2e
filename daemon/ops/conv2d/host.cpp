// daemon/ops/conv2d/host.cpp — conv2d's host face: fp64 reference and fp32 host baseline, shape
// inference and cost.
#include <algorithm>

#include "ops/conv2d/conv2d.hpp"
#include "ops/op_support.hpp"

namespace kbv::ops::conv2d {
namespace {

using namespace op_support;

constexpr double kDefaultStride = default_of<Definition>("stride");
constexpr double kDefaultPadding = default_of<Definition>("padding");
constexpr double kDefaultDilation = default_of<Definition>("dilation");
constexpr double kDefaultGroups = default_of<Definition>("groups");

// Sizes of one conv2d application, validated.
struct ConvGeometry {
  int64_t n, c, h, w;       // input
  int64_t o, kh, kw;        // weight [O, C/groups, KH, KW]
  int64_t oh, ow;           // output spatial size
  int64_t stride, padding, dilation, groups;
};

// PyTorch's output size: floor((in + 2·pad − dilation·(k − 1) − 1) / stride) + 1.
int64_t conv_output_size(int64_t in, int64_t kernel, const ConvGeometry& g) {
  int64_t span = in + 2 * g.padding - g.dilation * (kernel - 1) - 1;
  return span < 0 ? 0 : span / g.stride + 1;
}

ConvGeometry conv_geometry(const std::vector<Shape>& inputs, const Attrs& attrs) {
  constexpr std::string_view op = "conv2d";
  check_input_count(op, "x, weight, bias?", inputs, 2, 3);
  check_dims_positive(op, inputs);
  check_rank(op, "x", inputs[0], 4, "[N, C, H, W]");
  check_rank(op, "weight", inputs[1], 4, "[O, C/groups, KH, KW]");
  ConvGeometry g{};
  g.stride = int_attr(op, attrs, "stride", kDefaultStride, 1);
  g.padding = int_attr(op, attrs, "padding", kDefaultPadding, 0);
  g.dilation = int_attr(op, attrs, "dilation", kDefaultDilation, 1);
  g.groups = int_attr(op, attrs, "groups", kDefaultGroups, 1);
  const Shape& x = inputs[0];
  const Shape& weight = inputs[1];
  g.n = x[0], g.c = x[1], g.h = x[2], g.w = x[3];
  g.o = weight[0], g.kh = weight[2], g.kw = weight[3];
  const std::string groups = std::to_string(g.groups);
  if (g.c % g.groups != 0)
    throw OpError("conv2d: x has " + std::to_string(g.c) + " channels, not divisible by groups = " +
                  groups + "; expected C to be a multiple of groups");
  if (g.o % g.groups != 0)
    throw OpError("conv2d: weight has " + std::to_string(g.o) +
                  " output channels, not divisible by groups = " + groups +
                  "; expected O to be a multiple of groups");
  if (weight[1] != g.c / g.groups)
    throw OpError("conv2d: weight has shape " + to_string(weight) + " for x of shape " +
                  to_string(x) + " and groups = " + groups + "; expected weight.shape[1] == " +
                  std::to_string(g.c / g.groups) + " (C/groups)");
  if (inputs.size() == 3 && inputs[2] != Shape{g.o})
    throw OpError("conv2d: bias has shape " + to_string(inputs[2]) + "; expected [" +
                  std::to_string(g.o) + "] (weight.shape[0])");
  g.oh = conv_output_size(g.h, g.kh, g);
  g.ow = conv_output_size(g.w, g.kw, g);
  if (g.oh < 1 || g.ow < 1)
    throw OpError("conv2d: kernel " + std::to_string(g.kh) + "x" + std::to_string(g.kw) +
                  " with dilation " + std::to_string(g.dilation) + " does not fit input " +
                  std::to_string(g.h) + "x" + std::to_string(g.w) + " padded by " +
                  std::to_string(g.padding) +
                  "; expected dilation*(k-1)+1 <= size + 2*padding in both dims");
  return g;
}

// Range [first, last) of output positions whose input position pos·stride + offset lies in
// [0, size).
struct ValidRange {
  int64_t first, last;
};
ValidRange valid_outputs(int64_t offset, int64_t size, int64_t stride, int64_t out_size) {
  // ceil(-offset / stride) for the first, floor((size - 1 - offset) / stride) for the last.
  int64_t first = offset >= 0 ? 0 : (-offset + stride - 1) / stride;
  int64_t top = size - 1 - offset;
  int64_t last = top < 0 ? 0 : std::min(out_size, top / stride + 1);
  return {first, std::max(first, last)};
}

class Conv2dOp final : public DefinedOp<Conv2dOp, Definition> {
 public:
  Shape infer_shape(const std::vector<Shape>& inputs, const Attrs& attrs) const override {
    ConvGeometry g = conv_geometry(inputs, attrs);
    return {g.n, g.o, g.oh, g.ow};
  }

  // 2·N·O·OH·OW·(C/groups)·KH·KW: one multiply-add per output and kernel tap. Taps that land in
  // the zero padding are not counted (a kernel may skip them), so this stays a lower bound
  // with padding too; with padding 0 it is exactly the formula above. The bias is free: an
  // accumulator that starts from it absorbs it.
  double flops(const std::vector<Shape>& inputs, const Shape&, const Attrs& attrs) const override {
    const ConvGeometry g = conv_geometry(inputs, attrs);
    double row_taps = 0, col_taps = 0;  // Σ over taps of the output rows (cols) they reach
    for (int64_t ki = 0; ki < g.kh; ++ki) {
      ValidRange rows = valid_outputs(ki * g.dilation - g.padding, g.h, g.stride, g.oh);
      row_taps += static_cast<double>(rows.last - rows.first);
    }
    for (int64_t kj = 0; kj < g.kw; ++kj) {
      ValidRange cols = valid_outputs(kj * g.dilation - g.padding, g.w, g.stride, g.ow);
      col_taps += static_cast<double>(cols.last - cols.first);
    }
    return 2.0 * static_cast<double>(g.n * g.o * (g.c / g.groups)) * row_taps * col_taps;
  }

  // For each (image, output channel): start the output plane from the bias, then for each
  // input channel and kernel tap add weight · (shifted input plane), rows innermost so input
  // and output are read contiguously (stride 1).
  template <class T>
  void compute(const OpArgs<T>& args) const {
    check_args(*this, args);
    const ConvGeometry g = conv_geometry(args.input_shapes, attrs_of(args));
    const T* bias = args.inputs.size() > 2 ? args.inputs[2] : nullptr;
    const int64_t group_in = g.c / g.groups, group_out = g.o / g.groups;
    const int64_t plane = g.oh * g.ow;
    for (int64_t n = 0; n < g.n; ++n)
      for (int64_t o = 0; o < g.o; ++o) {
        T* y = args.output + (n * g.o + o) * plane;
        std::fill(y, y + plane, bias ? bias[o] : T(0));
        const int64_t first_channel = (o / group_out) * group_in;
        for (int64_t ci = 0; ci < group_in; ++ci) {
          const T* x = args.inputs[0] + (n * g.c + first_channel + ci) * g.h * g.w;
          const T* w = args.inputs[1] + (o * group_in + ci) * g.kh * g.kw;
          for (int64_t ki = 0; ki < g.kh; ++ki) {
            const int64_t row_offset = ki * g.dilation - g.padding;
            const ValidRange rows = valid_outputs(row_offset, g.h, g.stride, g.oh);
            for (int64_t kj = 0; kj < g.kw; ++kj) {
              const T tap = w[ki * g.kw + kj];
              const int64_t col_offset = kj * g.dilation - g.padding;
              const ValidRange cols = valid_outputs(col_offset, g.w, g.stride, g.ow);
              for (int64_t r = rows.first; r < rows.last; ++r) {
                const int64_t x_row = (r * g.stride + row_offset) * g.w + col_offset;
                T* y_row = y + r * g.ow;
                for (int64_t s = cols.first; s < cols.last; ++s)
                  y_row[s] += tap * x[x_row + s * g.stride];
              }
            }
          }
        }
      }
  }
};

}  // namespace

const Op& host_op() {
  static const Conv2dOp op;
  return op;
}

}  // namespace kbv::ops::conv2d
