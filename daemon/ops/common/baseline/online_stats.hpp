// ops/common/baseline/online_stats.hpp — the combine rules of the CUDA baselines' reductions,
// usable on host and device (host tests check their edge cases): online softmax's (max, sum of
// exp(x − max)) and Welford moments with Chan et al.'s parallel combine.
#pragma once

#include <cmath>

#include "ops/common/scalar_math.hpp"

namespace kbv::ops::baseline {

struct MaxSum {
  float max;
  float sum;
};

KBV_HOST_DEVICE MaxSum max_sum_empty() { return {-INFINITY, 0.f}; }

KBV_HOST_DEVICE void max_sum_add(MaxSum& acc, float x) {
  if (x > acc.max) {
    acc.sum = acc.sum * expf(acc.max - x) + 1.f;
    acc.max = x;
  } else if (acc.max != -INFINITY || x != x) {
    // A NaN x lands here and makes the sum NaN, as in PyTorch; -inf before any finite value
    // contributes exp(-inf) = 0 and is skipped rather than computing exp(-inf - -inf) = NaN.
    acc.sum += expf(x - acc.max);
  }
}

KBV_HOST_DEVICE MaxSum max_sum_combine(MaxSum a, MaxSum b) {
  const float max = fmaxf(a.max, b.max);
  if (max == -INFINITY) return {max, a.sum + b.sum};
  const float sa = a.max == -INFINITY ? 0.f : a.sum * expf(a.max - max);
  const float sb = b.max == -INFINITY ? 0.f : b.sum * expf(b.max - max);
  return {max, sa + sb};
}

struct Moments {
  float count;
  float mean;
  float m2;  // sum of squared deviations from the mean
};

KBV_HOST_DEVICE Moments moments_empty() { return {0.f, 0.f, 0.f}; }

KBV_HOST_DEVICE Moments moments_combine(Moments a, Moments b) {
  if (b.count == 0.f) return a;
  if (a.count == 0.f) return b;
  const float count = a.count + b.count;
  const float delta = b.mean - a.mean;
  const float b_share = b.count / count;
  return {count, a.mean + delta * b_share, a.m2 + b.m2 + delta * delta * a.count * b_share};
}

// Moments of four values, computed exactly as a group before being combined.
KBV_HOST_DEVICE Moments moments_of4(float x, float y, float z, float w) {
  const float mean = (x + y + z + w) * 0.25f;
  const float dx = x - mean, dy = y - mean, dz = z - mean, dw = w - mean;
  return {4.f, mean, dx * dx + dy * dy + dz * dz + dw * dw};
}

}  // namespace kbv::ops::baseline
