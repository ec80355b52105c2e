// ops/common/convolution_host.hpp — the host face every convolution shares: shape inference, cost,
// and the loop that is both the fp64 reference and the fp32 host baseline. An op's host.cpp is
// `static const ConvolutionOp<Definition> op;`, its Definition giving `form` (ConvolutionForm)
// and `attributes = convolution_attributes<rank, transposed>()`.
#pragma once

#include <algorithm>
#include <vector>

#include "ops/common/convolution.hpp"
#include "ops/op_support.hpp"

namespace kbv::ops {

namespace convolution_detail {

// Adds tap·x into y for every (stepped position, partner position) pair of one kernel tap and one
// pair of channel planes. A convolution reads its partner, the input, and steps the output
// (y[p] += tap·x[p·stride + offset]); a transposed one steps its input and scatters into the
// partner, the output (y[p·stride + offset] += tap·x[p]). Rows innermost, so the stepped plane is
// walked contiguously.
template <class T>
void accumulate_tap(const ConvolutionGeometry& g, const std::array<int64_t, kMaxSpatialRank>& tap, T weight,
                    const T* x, T* y) {
  const bool transposed = g.form.transposed;
  std::array<LandedRange, kMaxSpatialRank> ranges;
  std::array<int64_t, kMaxSpatialRank> offsets, stepped, partner;
  for (size_t axis = 0; axis < ranges.size(); ++axis) {
    const ConvolutionAxis& a = g.axes[axis];
    ranges[axis] = landed_range(a, tap[axis], transposed);
    if (ranges[axis].count() == 0) return;
    offsets[axis] = tap[axis] * a.dilation - a.padding;
    stepped[axis] = a.stepped(transposed);
    partner[axis] = a.partner(transposed);
  }
  const int64_t stride_w = g.axes[2].stride;
  for (int64_t d = ranges[0].first; d < ranges[0].last; ++d) {
    const int64_t partner_d = d * g.axes[0].stride + offsets[0];
    for (int64_t h = ranges[1].first; h < ranges[1].last; ++h) {
      const int64_t partner_h = h * g.axes[1].stride + offsets[1];
      const int64_t stepped_row = (d * stepped[1] + h) * stepped[2];
      const int64_t partner_row = (partner_d * partner[1] + partner_h) * partner[2] + offsets[2];
      if (transposed) {
        for (int64_t w = ranges[2].first; w < ranges[2].last; ++w)
          y[partner_row + w * stride_w] += weight * x[stepped_row + w];
      } else {
        for (int64_t w = ranges[2].first; w < ranges[2].last; ++w)
          y[stepped_row + w] += weight * x[partner_row + w * stride_w];
      }
    }
  }
}

}  // namespace convolution_detail

template <class Definition>
class ConvolutionOp final : public DefinedOp<ConvolutionOp<Definition>, Definition>, public ConvolutionFormed {
 public:
  ConvolutionForm convolution_form() const override { return Definition::form; }

  Shape infer_shape(const std::vector<Shape>& inputs, const Attrs& attrs) const override {
    return convolution_output_shape(geometry(inputs, attrs));
  }

  double flops(const std::vector<Shape>& inputs, const Shape&, const Attrs& attrs) const override {
    return convolution_flops(geometry(inputs, attrs));
  }

  // For each (image, output channel): start the output plane from the bias (so it is added once
  // per output), then for each input channel of its group and each kernel tap add the tap's
  // contribution (convolution_detail::accumulate_tap).
  template <class T>
  void compute(const OpArgs<T>& args) const {
    op_support::check_args(*this, args);
    const ConvolutionGeometry g = geometry(args.input_shapes, op_support::attrs_of(args));
    const T* bias = args.inputs.size() > 2 ? args.inputs[2] : nullptr;
    const int64_t group_in = g.group_in_channels(), group_out = g.group_out_channels();
    const int64_t in_plane = g.input_pixels(), out_plane = g.output_pixels(), taps = g.kernel_taps();
    for (int64_t n = 0; n < g.batch; ++n)
      for (int64_t co = 0; co < g.out_channels; ++co) {
        T* y = args.output + (n * g.out_channels + co) * out_plane;
        std::fill(y, y + out_plane, bias ? bias[co] : T(0));
        const int64_t group = co / group_out;
        for (int64_t c = 0; c < group_in; ++c) {
          const int64_t ci = group * group_in + c;
          const T* x = args.inputs[0] + (n * g.in_channels + ci) * in_plane;
          // weight[O, C/groups, *K] for a convolution, weight[C, O/groups, *K] for a transposed one.
          const int64_t filter = g.form.transposed ? ci * group_out + (co - group * group_out) : co * group_in + c;
          const T* weight = args.inputs[1] + filter * taps;  // its taps in (kd, kh, kw) order
          std::array<int64_t, kMaxSpatialRank> tap{};
          for (tap[0] = 0; tap[0] < g.axes[0].kernel; ++tap[0])
            for (tap[1] = 0; tap[1] < g.axes[1].kernel; ++tap[1])
              for (tap[2] = 0; tap[2] < g.axes[2].kernel; ++tap[2])
                convolution_detail::accumulate_tap(g, tap, *weight++, x, y);
        }
      }
  }

 private:
  static ConvolutionGeometry geometry(const std::vector<Shape>& inputs, const Attrs& attrs) {
    return convolution_geometry(Definition::name, Definition::form, inputs, attrs);
  }
};

}  // namespace kbv::ops
