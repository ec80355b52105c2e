// ops/common/extreme.hpp — the host fold of amax and amin (the maximum or minimum with NaN
// propagating, as torch.amax/amin), shared by both ops' host faces.
#pragma once

#include <limits>

#include "ops/common/axis_reduction.hpp"

namespace kbv::ops {

// y = the extreme over the split's extent of x; kMax for amax, else amin. Once a NaN enters it
// stays: no comparison with NaN is true, and NaN replaces the running value when it arrives.
template <bool kMax, class T>
void reduce_extreme(const T* x, T* y, const op_support::AxisSplit& split) {
  const T start = kMax ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::infinity();
  reduce_lines(x, y, split, start,
               [](T& acc, T value, int64_t) {
                 if ((kMax ? value > acc : value < acc) || value != value) acc = value;
               },
               [](T acc, int64_t) { return acc; });
}

}  // namespace kbv::ops
