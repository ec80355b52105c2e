// ops/add_scalar/add_scalar.hpp — add_scalar: x + value (x − c is add_scalar of −c).
#pragma once

#include "ops/common/elementwise.hpp"

namespace kbv::ops::add_scalar {

struct Definition : UnaryDefinition {
  static constexpr std::string_view name = "add_scalar";
  static constexpr std::array attributes{Attribute{"value", 0.0}};
  static constexpr std::string_view pytorch = "x + value";

  template <class T>
  KBV_HOST_DEVICE static T apply(T x, Params<T> p) {
    return x + p[0];
  }
};

}  // namespace kbv::ops::add_scalar
