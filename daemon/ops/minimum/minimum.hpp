// ops/minimum/minimum.hpp — minimum: the smaller of a and b elementwise, NaN propagating, numpy
// broadcasting (torch.minimum).
#pragma once

#include "ops/common/elementwise.hpp"

namespace kbv::ops::minimum {

struct Definition : BinaryDefinition {
  static constexpr std::string_view name = "minimum";
  static constexpr std::string_view semantics = "numpy broadcasting, right-aligned; NaN propagates";
  static constexpr std::string_view pytorch = "torch.minimum(a, b)";

  template <class T>
  KBV_HOST_DEVICE static T apply(T a, T b, Params<T>) {
    // torch.minimum propagates NaN from either side (fmin/fmax would drop it); a + b is NaN then.
    if (a != a || b != b) return a + b;
    return a < b ? a : b;
  }
};

}  // namespace kbv::ops::minimum
