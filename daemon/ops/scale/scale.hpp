// ops/scale/scale.hpp — scale: x·value, a multiplication by a constant (x * value in PyTorch).
#pragma once

#include "ops/common/elementwise.hpp"

namespace kbv::ops::scale {

struct Definition : UnaryDefinition {
  static constexpr std::string_view name = "scale";
  static constexpr std::array attributes{Attribute{"value", 1.0}};
  static constexpr std::string_view pytorch = "x * value";

  template <class T>
  KBV_HOST_DEVICE static T apply(T x, Params<T> p) {
    const T value = p[0];
    return x * value;
  }
};

}  // namespace kbv::ops::scale
