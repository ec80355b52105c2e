// daemon/ops/maxpool2d/host.cpp — maxpool2d's host face: fp64 reference and fp32 host baseline,
// shape inference and cost.
#include <cmath>
#include <limits>

#include "ops/maxpool2d/maxpool2d.hpp"
#include "ops/op_support.hpp"

namespace kbv::ops::maxpool2d {
namespace {

using namespace op_support;

constexpr double kDefaultKernel = default_of<Definition>("kernel");
constexpr double kDefaultStride = default_of<Definition>("stride");  // 0: the kernel size
constexpr double kDefaultPadding = default_of<Definition>("padding");
constexpr double kDefaultDilation = default_of<Definition>("dilation");

struct PoolGeometry {
  int64_t n, c, h, w, oh, ow;
  int64_t kernel, stride, padding, dilation;
};

PoolGeometry pool_geometry(const std::vector<Shape>& inputs, const Attrs& attrs) {
  constexpr std::string_view op = "maxpool2d";
  check_input_count(op, "x", inputs, 1, 1);
  check_dims_positive(op, inputs);
  check_rank(op, "x", inputs[0], 4, "[N, C, H, W]");
  PoolGeometry g{};
  g.kernel = int_attr(op, attrs, "kernel", kDefaultKernel, 1);
  g.stride = int_attr(op, attrs, "stride", kDefaultStride, 0);
  if (g.stride == 0) g.stride = g.kernel;
  g.padding = int_attr(op, attrs, "padding", kDefaultPadding, 0);
  g.dilation = int_attr(op, attrs, "dilation", kDefaultDilation, 1);
  // PyTorch's pool2d_shape_check: "pad should be at most half of effective kernel size";
  // it compares against kernel/2 (integer division), not the dilated extent.
  if (g.padding > g.kernel / 2)
    throw OpError("maxpool2d: padding " + std::to_string(g.padding) + " with kernel " +
                  std::to_string(g.kernel) + "; expected padding <= kernel/2 (" +
                  std::to_string(g.kernel / 2) + "), as PyTorch requires");
  const Shape& x = inputs[0];
  g.n = x[0], g.c = x[1], g.h = x[2], g.w = x[3];
  // PyTorch's pooling_output_shape, floor mode: floor((in + 2p − d(k−1) − 1) / s) + 1.
  auto out_size = [&g](int64_t in) {
    int64_t span = in + 2 * g.padding - g.dilation * (g.kernel - 1) - 1;
    return span < 0 ? 0 : span / g.stride + 1;
  };
  g.oh = out_size(g.h);
  g.ow = out_size(g.w);
  if (g.oh < 1 || g.ow < 1)
    throw OpError("maxpool2d: kernel " + std::to_string(g.kernel) + " with dilation " +
                  std::to_string(g.dilation) + " does not fit input " + std::to_string(g.h) +
                  "x" + std::to_string(g.w) + " padded by " + std::to_string(g.padding) +
                  "; expected dilation*(kernel-1)+1 <= size + 2*padding in both dims");
  return g;
}

// Number of window taps of output position `out` (along one dim) that land inside the input.
int64_t taps_inside(int64_t out, int64_t size, const PoolGeometry& g) {
  int64_t count = 0;
  for (int64_t k = 0; k < g.kernel; ++k) {
    int64_t pos = out * g.stride - g.padding + k * g.dilation;
    count += pos >= 0 && pos < size;
  }
  return count;
}

class MaxPool2dOp final : public DefinedOp<MaxPool2dOp, Definition> {
 public:
  Shape infer_shape(const std::vector<Shape>& inputs, const Attrs& attrs) const override {
    PoolGeometry g = pool_geometry(inputs, attrs);
    return {g.n, g.c, g.oh, g.ow};
  }

  // One comparison per output whose window holds at least two input elements. Not one per
  // tap: with overlapping windows a sliding-window max shares comparisons (van Herk/Gil-Werman
  // needs about three per element whatever the kernel), so only this count is a lower bound.
  double flops(const std::vector<Shape>& inputs, const Shape&, const Attrs& attrs) const override {
    const PoolGeometry g = pool_geometry(inputs, attrs);
    double rows_one = 0, rows_many = 0, cols_many = 0;
    for (int64_t r = 0; r < g.oh; ++r) {
      int64_t taps = taps_inside(r, g.h, g);
      rows_one += taps == 1;
      rows_many += taps >= 2;
    }
    for (int64_t s = 0; s < g.ow; ++s) cols_many += taps_inside(s, g.w, g) >= 2;
    // A window's taps inside = rows inside × cols inside: ≥ 2 unless both are 1.
    const double per_plane = rows_many * static_cast<double>(g.ow) + rows_one * cols_many;
    return static_cast<double>(g.n * g.c) * per_plane;
  }

  // Taps outside the input are skipped, which is what -inf padding means. A NaN in a window
  // wins, as in PyTorch's kernel (`val > max || isnan(val)`).
  template <class T>
  void compute(const OpArgs<T>& args) const {
    check_args(*this, args);
    const PoolGeometry g = pool_geometry(args.input_shapes, attrs_of(args));
    for (int64_t p = 0; p < g.n * g.c; ++p) {
      const T* x = args.inputs[0] + p * g.h * g.w;
      T* y = args.output + p * g.oh * g.ow;
      for (int64_t r = 0; r < g.oh; ++r)
        for (int64_t s = 0; s < g.ow; ++s) {
          T best = -std::numeric_limits<T>::infinity();
          for (int64_t ki = 0; ki < g.kernel; ++ki) {
            const int64_t row = r * g.stride - g.padding + ki * g.dilation;
            if (row < 0 || row >= g.h) continue;
            for (int64_t kj = 0; kj < g.kernel; ++kj) {
              const int64_t col = s * g.stride - g.padding + kj * g.dilation;
              if (col < 0 || col >= g.w) continue;
              const T value = x[row * g.w + col];
              if (value > best || std::isnan(value)) best = value;
            }
          }
          y[r * g.ow + s] = best;
        }
    }
  }
};

}  // namespace

const Op& host_op() {
  static const MaxPool2dOp op;
  return op;
}

}  // namespace kbv::ops::maxpool2d
