// ops/common/pool_window.hpp — the window walker every pooling op shares on the host and on the
// device: a pooled tensor seen as [planes = N·C, D, H, W] (1-D and 2-D pools are 3-D pools whose
// leading spatial axes have extent 1), the taps of one output's window that land inside the
// input along each axis, and the value of one output — the window's max (NaN wins), its mean
// with PyTorch's avg_pool divisor, or the adaptive mean. The host's fp64 reference and fp32
// baseline and both CUDA faces evaluate these same functions; what each pool op computes is
// checked by its hand-worked values (ops/<op>/cases.cpp).
#pragma once

#include <cstdint>

#include "ops/common/scalar_math.hpp"

namespace kbv::ops::pooling {

constexpr int kSpatialAxes = 3;  // D, H, W

enum class PoolKind { max, average, adaptive_average };

// One spatial axis. Sliding windows (max, average): output o's taps sit at
// o·stride − padding + k·dilation for k in [0, kernel). Adaptive windows use only in and out.
struct PoolAxis {
  int64_t in = 1, out = 1;
  int64_t kernel = 1, stride = 1, padding = 0, dilation = 1;
};

struct PoolGeometry {
  PoolKind kind = PoolKind::max;
  bool count_include_pad = true;  // average only: divide by the window clipped to the padded input
  int64_t planes = 1;             // N·C
  PoolAxis axes[kSpatialAxes];    // D, H, W; unused leading axes keep the defaults (extent 1)

  KBV_HOST_DEVICE int64_t in_plane() const { return axes[0].in * axes[1].in * axes[2].in; }
  KBV_HOST_DEVICE int64_t out_plane() const { return axes[0].out * axes[1].out * axes[2].out; }
  KBV_HOST_DEVICE int64_t outputs() const { return planes * out_plane(); }
};

// The taps of one window along one axis that land in the input: first, first + step, …, count
// of them (count 0 when every tap is padding).
struct TapRange {
  int64_t first = 0, step = 1, count = 0;
};

KBV_HOST_DEVICE TapRange sliding_taps(const PoolAxis& a, int64_t o) {
  const int64_t start = o * a.stride - a.padding;
  // Taps k with start + k·dilation in [0, in): k from ceil(−start / d) to ceil((in − start) / d).
  const int64_t k_begin = start < 0 ? (-start + a.dilation - 1) / a.dilation : 0;
  int64_t k_end = a.in - start <= 0 ? 0 : (a.in - start + a.dilation - 1) / a.dilation;
  if (k_end > a.kernel) k_end = a.kernel;
  TapRange taps;
  taps.first = start + k_begin * a.dilation;
  taps.step = a.dilation;
  taps.count = k_end > k_begin ? k_end - k_begin : 0;
  return taps;
}

// PyTorch's adaptive windows (aten/src/ATen/native/AdaptivePooling.h, start_index/end_index):
// [floor(o·in / out), ceil((o + 1)·in / out)).
KBV_HOST_DEVICE TapRange adaptive_taps(const PoolAxis& a, int64_t o) {
  const int64_t begin = o * a.in / a.out;
  const int64_t end = ((o + 1) * a.in + a.out - 1) / a.out;
  TapRange taps;
  taps.first = begin;
  taps.count = end - begin;
  return taps;
}

// With count_include_pad, PyTorch's avg_pool divides by the window clipped to the padded input,
// min(start + kernel, in + padding) − start (so a ceil_mode window past the padding counts
// fewer); otherwise by the taps inside the input (aten/src/ATen/native/cuda/AveragePool2d.cu).
KBV_HOST_DEVICE int64_t padded_window(const PoolAxis& a, int64_t o) {
  const int64_t start = o * a.stride - a.padding;
  const int64_t end = start + a.kernel < a.in + a.padding ? start + a.kernel : a.in + a.padding;
  return end - start;
}

// NaN wins and stays, as PyTorch's max pools compare (`val > max || isnan(val)`).
template <class T>
KBV_HOST_DEVICE void take_max(T& best, T value) {
  if (value > best || value != value) best = value;
}

template <class T, class Visit>
KBV_HOST_DEVICE void for_each_tap(const T* plane, const PoolGeometry& g, const TapRange (&taps)[kSpatialAxes],
                                  Visit& visit) {
  for (int64_t i = 0; i < taps[0].count; ++i) {
    const int64_t d = taps[0].first + i * taps[0].step;
    for (int64_t j = 0; j < taps[1].count; ++j) {
      const int64_t h = taps[1].first + j * taps[1].step;
      const T* row = plane + (d * g.axes[1].in + h) * g.axes[2].in;
      for (int64_t k = 0; k < taps[2].count; ++k) visit(row[taps[2].first + k * taps[2].step]);
    }
  }
}

template <class T>
struct MaxVisit {
  T best;
  KBV_HOST_DEVICE void operator()(T value) { take_max(best, value); }
};

template <class T>
struct SumVisit {
  T sum;
  KBV_HOST_DEVICE void operator()(T value) { sum += value; }
};

// Output `index` of the pooled tensor [planes, out_d, out_h, out_w], from input x (the whole
// tensor); the arithmetic is in T, as the fp64 reference and the fp32 baselines need.
template <PoolKind Kind, class T>
KBV_HOST_DEVICE T pooled_value(const PoolGeometry& g, const T* x, int64_t index) {
  int64_t o[kSpatialAxes];
  for (int axis = kSpatialAxes - 1; axis >= 0; --axis) {
    o[axis] = index % g.axes[axis].out;
    index /= g.axes[axis].out;
  }
  const T* plane = x + index * g.in_plane();
  TapRange taps[kSpatialAxes];
  for (int axis = 0; axis < kSpatialAxes; ++axis)
    taps[axis] = Kind == PoolKind::adaptive_average ? adaptive_taps(g.axes[axis], o[axis])
                                                    : sliding_taps(g.axes[axis], o[axis]);
  if constexpr (Kind == PoolKind::max) {
    // Every tap in the padding leaves −∞, padding's value (PyTorch gives the same).
    MaxVisit<T> visit{-static_cast<T>(INFINITY)};
    for_each_tap(plane, g, taps, visit);
    return visit.best;
  } else {
    SumVisit<T> visit{T(0)};
    for_each_tap(plane, g, taps, visit);
    int64_t divisor = 1;
    for (int axis = 0; axis < kSpatialAxes; ++axis)
      divisor *= Kind == PoolKind::average && g.count_include_pad ? padded_window(g.axes[axis], o[axis])
                                                                  : taps[axis].count;
    return visit.sum / static_cast<T>(divisor);
  }
}

}  // namespace kbv::ops::pooling
