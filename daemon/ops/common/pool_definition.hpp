// ops/common/pool_definition.hpp — what the pooling ops' descriptors share, as UnaryDefinition does
// for elementwise ops: MaxPoolDefinition<axes>, AvgPoolDefinition<axes> and
// AdaptiveAvgPoolDefinition<axes> fill in everything but `name` and `pytorch`, including `pool`,
// the PoolSpec the host face (ops/common/pooling.hpp) and the CUDA faces read the geometry by.
//
// Attributes: sliding windows take `kernel`, `stride` (0: the kernel), `padding`, `ceil_mode`, max
// pools `dilation`, average pools `count_include_pad`, and 2-D/3-D pools per-axis overrides
// `<name>_h`, `<name>_w` (and `<name>_d`), −1 meaning the scalar's value; adaptive pools take
// `output_size`.
#pragma once

#include <array>
#include <cstddef>
#include <string_view>

#include "ops/common/definition.hpp"
#include "ops/common/pool_window.hpp"

namespace kbv::ops {

struct PoolSpec {
  pooling::PoolKind kind;
  int spatial_axes;  // 1, 2 or 3
};

// The scalar attributes pooling ops share, with PyTorch's defaults (torch.nn.MaxPool*d,
// AvgPool*d): stride defaults to kernel_size, spelled 0 since attributes are numbers; no padding;
// no dilation; floor mode; average pools count the padding. kbv's own default kernel is 2, the
// common 2×2 pool.
namespace pool_attribute {
constexpr Attribute kernel{"kernel", 2};
constexpr Attribute stride{"stride", 0};
constexpr Attribute padding{"padding", 0};
constexpr Attribute dilation{"dilation", 1};
constexpr Attribute ceil_mode{"ceil_mode", 0};
constexpr Attribute count_include_pad{"count_include_pad", 1};
constexpr Attribute output_size{"output_size", 1};
// A per-axis override's default: the scalar's value applies.
constexpr double kUseScalar = -1;
constexpr std::string_view kPerAxis[][pooling::kSpatialAxes] = {{"kernel_d", "kernel_h", "kernel_w"},
                                                                {"stride_d", "stride_h", "stride_w"},
                                                                {"padding_d", "padding_h", "padding_w"},
                                                                {"dilation_d", "dilation_h", "dilation_w"}};

// `scalars`, then for 2-D and 3-D pools the overrides of the first `Names` of kernel, stride,
// padding, dilation along each of the last `Axes` spatial axes.
template <int Axes, size_t Names, size_t Scalars>
constexpr auto with_per_axis(const std::array<Attribute, Scalars>& scalars) {
  constexpr size_t kOverrides = Axes > 1 ? Names * Axes : 0;
  std::array<Attribute, Scalars + kOverrides> all{};
  size_t next = 0;
  for (const Attribute& attribute : scalars) all[next++] = attribute;
  if constexpr (kOverrides > 0)
    for (size_t name = 0; name < Names; ++name)
      for (int axis = pooling::kSpatialAxes - Axes; axis < pooling::kSpatialAxes; ++axis)
        all[next++] = Attribute{kPerAxis[name][axis], kUseScalar};
  return all;
}
}  // namespace pool_attribute

constexpr std::string_view kPoolInputs[] = {"", "x[N,C,L]", "x[N,C,H,W]", "x[N,C,D,H,W]"};

template <int Axes>
struct PoolDefinitionBase {
  static_assert(Axes >= 1 && Axes <= pooling::kSpatialAxes);
  static constexpr OpCategory category = OpCategory::window;
  static constexpr std::string_view inputs = kPoolInputs[Axes];
  static constexpr size_t min_inputs = 1;
  static constexpr size_t max_inputs = 1;
  static constexpr PrecisionClass precision = PrecisionClass::exact;
};

template <int Axes>
struct MaxPoolDefinition : PoolDefinitionBase<Axes> {
  static constexpr auto attributes = pool_attribute::with_per_axis<Axes, 4>(
      std::array<Attribute, 5>{pool_attribute::kernel, pool_attribute::stride, pool_attribute::padding,
                               pool_attribute::dilation, pool_attribute::ceil_mode});
  static constexpr PoolSpec pool{pooling::PoolKind::max, Axes};
  static constexpr std::string_view semantics =
      "stride 0 means the kernel size; padding acts as −inf; padding > kernel/2 is rejected as in "
      "PyTorch; ceil_mode drops a last window that would start in the right padding, as PyTorch; NaN "
      "propagates; 2-D/3-D: `<attribute>_d/_h/_w` overrides one axis (−1: the scalar's value)";
  static constexpr std::string_view flops_rule =
      "1 per output whose window holds ≥ 2 input elements (a sliding-window max shares comparisons "
      "between overlapping windows, so per-tap counts would not be a bound)";
};

template <int Axes>
struct AvgPoolDefinition : PoolDefinitionBase<Axes> {
  static constexpr auto attributes = pool_attribute::with_per_axis<Axes, 3>(
      std::array<Attribute, 5>{pool_attribute::kernel, pool_attribute::stride, pool_attribute::padding,
                               pool_attribute::ceil_mode, pool_attribute::count_include_pad});
  static constexpr PoolSpec pool{pooling::PoolKind::average, Axes};
  static constexpr std::string_view semantics =
      "stride 0 means the kernel size; padding > kernel/2 is rejected as in PyTorch; ceil_mode drops "
      "a last window that would start in the right padding; divisor: the window clipped to the "
      "padded input with count_include_pad, else the taps inside the input (PyTorch's rule); "
      "2-D/3-D: `<attribute>_d/_h/_w` overrides one axis (−1: the scalar's value)";
  static constexpr std::string_view flops_rule =
      "1 per output element (the divide; sliding sums share their adds, so per-tap counts would "
      "not be a bound)";
};

template <int Axes>
struct AdaptiveAvgPoolDefinition : PoolDefinitionBase<Axes> {
  static constexpr std::array<Attribute, 1> attributes{pool_attribute::output_size};
  static constexpr PoolSpec pool{pooling::PoolKind::adaptive_average, Axes};
  static constexpr std::string_view semantics =
      "one output_size for every spatial axis; window i of an axis of extent S covers "
      "[floor(i·S/out), ceil((i+1)·S/out)), as PyTorch";
  static constexpr std::string_view flops_rule =
      "numel(x) (every element added at least once, one divide per output)";
};

}  // namespace kbv::ops
