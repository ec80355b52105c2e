// ops/tanh/tanh.hpp — tanh (torch.tanh).
#pragma once

#include "ops/common/elementwise.hpp"

namespace kbv::ops::tanh {

struct Definition : UnaryDefinition {
  static constexpr std::string_view name = "tanh";
  static constexpr std::string_view pytorch = "torch.tanh(x)";

  template <class T>
  KBV_HOST_DEVICE static T apply(T x, Params<T>) {
    return math::tanh(x);
  }
};

}  // namespace kbv::ops::tanh
