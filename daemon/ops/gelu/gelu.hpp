// ops/gelu/gelu.hpp — gelu in its exact erf form, 0.5·x·(1 + erf(x/√2))
// (torch.nn.functional.gelu, approximate='none').
#pragma once

#include "ops/common/elementwise.hpp"

namespace kbv::ops::gelu {

struct Definition : UnaryDefinition {
  static constexpr std::string_view name = "gelu";
  static constexpr std::string_view semantics = "exact erf form 0.5·x·(1 + erf(x/√2))";
  static constexpr std::string_view pytorch = "torch.nn.functional.gelu(x)";

  template <class T>
  KBV_HOST_DEVICE static T apply(T x, Params<T>) {
    constexpr T kInvSqrt2 = T(0.70710678118654752440084436210485);
    return T(0.5) * x * (T(1) + math::erf(x * kInvSqrt2));
  }
};

}  // namespace kbv::ops::gelu
