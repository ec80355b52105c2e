// ops/sigmoid/sigmoid.hpp — sigmoid: 1 / (1 + exp(−x)) (torch.sigmoid).
#pragma once

#include "ops/common/elementwise.hpp"

namespace kbv::ops::sigmoid {

struct Definition : UnaryDefinition {
  static constexpr std::string_view name = "sigmoid";
  static constexpr std::string_view pytorch = "torch.sigmoid(x)";

  template <class T>
  KBV_HOST_DEVICE static T apply(T x, Params<T>) {
    // exp(-x) overflows to +inf for very negative x, giving exactly 0 as torch.sigmoid does.
    return T(1) / (T(1) + math::exp(-x));
  }
};

}  // namespace kbv::ops::sigmoid
