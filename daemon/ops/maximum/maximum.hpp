// ops/maximum/maximum.hpp — maximum: the larger of a and b elementwise, NaN propagating, numpy
// broadcasting (torch.maximum).
#pragma once

#include "ops/common/elementwise.hpp"

namespace kbv::ops::maximum {

struct Definition : BinaryDefinition {
  static constexpr std::string_view name = "maximum";
  static constexpr std::string_view semantics = "numpy broadcasting, right-aligned; NaN propagates";
  static constexpr std::string_view pytorch = "torch.maximum(a, b)";

  template <class T>
  KBV_HOST_DEVICE static T apply(T a, T b, Params<T>) {
    // torch.maximum propagates NaN from either side (fmin/fmax would drop it); a + b is NaN then.
    if (a != a || b != b) return a + b;
    return a > b ? a : b;
  }
};

}  // namespace kbv::ops::maximum
