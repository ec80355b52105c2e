// ops/mish/mish.hpp — mish: x·tanh(softplus(x)) (torch.nn.functional.mish).
#pragma once

#include "ops/common/elementwise.hpp"

namespace kbv::ops::mish {

struct Definition : UnaryDefinition {
  static constexpr std::string_view name = "mish";
  static constexpr std::string_view semantics = "softplus with threshold 20 (x above it)";
  static constexpr std::string_view pytorch = "torch.nn.functional.mish(x)";

  template <class T>
  KBV_HOST_DEVICE static T apply(T x, Params<T>) {
    // softplus' default threshold (torch.nn.Softplus): above it log1p(exp(x)) is x to within
    // exp(−20) ≈ 2e-9 relative and tanh of it is 1 in both precisions, and exp(x) no longer
    // overflows fp32 past x ≈ 88.
    constexpr T kSoftplusThreshold = T(20);
    const T softplus = x > kSoftplusThreshold ? x : math::log1p(math::exp(x));
    return x * math::tanh(softplus);
  }
};

}  // namespace kbv::ops::mish
