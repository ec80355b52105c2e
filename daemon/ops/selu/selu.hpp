// ops/selu/selu.hpp — selu: scale·x above 0, scale·alpha·(exp(x) − 1) otherwise, with the
// fixed constants of Klambauer et al. (torch.nn.functional.selu).
#pragma once

#include "ops/common/elementwise.hpp"

namespace kbv::ops::selu {

struct Definition : UnaryDefinition {
  static constexpr std::string_view name = "selu";
  static constexpr std::string_view semantics = "scale 1.0507009873554805, alpha 1.6732632423543772";
  static constexpr std::string_view pytorch = "torch.nn.functional.selu(x)";

  template <class T>
  KBV_HOST_DEVICE static T apply(T x, Params<T>) {
    // torch.nn.SELU's constants (aten/src/ATen/native/Activation.cpp: SELU_ALPHA, SELU_SCALE).
    constexpr T kAlpha = T(1.6732632423543772848170429916717);
    constexpr T kScale = T(1.0507009873554804934193349852946);
    return kScale * (x > T(0) ? x : kAlpha * math::expm1(x));
  }
};

}  // namespace kbv::ops::selu
