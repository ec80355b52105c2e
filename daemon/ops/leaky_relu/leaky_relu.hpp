// ops/leaky_relu/leaky_relu.hpp — leaky_relu: x, or x·negative_slope below 0
// (torch.nn.functional.leaky_relu).
#pragma once

#include "ops/common/elementwise.hpp"

namespace kbv::ops::leaky_relu {

struct Definition : UnaryDefinition {
  static constexpr std::string_view name = "leaky_relu";
  // torch.nn.LeakyReLU(negative_slope=0.01).
  static constexpr std::array attributes{Attribute{"negative_slope", 0.01}};
  static constexpr std::string_view pytorch =
      "torch.nn.functional.leaky_relu(x, negative_slope)";

  template <class T>
  KBV_HOST_DEVICE static T apply(T x, Params<T> p) {
    const T negative_slope = p[0];
    return x < T(0) ? x * negative_slope : x;
  }
};

}  // namespace kbv::ops::leaky_relu
