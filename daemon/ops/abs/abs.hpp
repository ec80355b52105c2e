// ops/abs/abs.hpp — abs: |x| (torch.abs).
#pragma once

#include "ops/common/elementwise.hpp"

namespace kbv::ops::abs {

struct Definition : UnaryDefinition {
  static constexpr std::string_view name = "abs";
  static constexpr std::string_view pytorch = "torch.abs(x)";

  template <class T>
  KBV_HOST_DEVICE static T apply(T x, Params<T>) {
    return math::fabs(x);
  }
};

}  // namespace kbv::ops::abs
