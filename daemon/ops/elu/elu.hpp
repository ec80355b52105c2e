// ops/elu/elu.hpp — elu: x above 0, alpha·(exp(x) − 1) otherwise (torch.nn.functional.elu).
#pragma once

#include "ops/common/elementwise.hpp"

namespace kbv::ops::elu {

struct Definition : UnaryDefinition {
  static constexpr std::string_view name = "elu";
  // torch.nn.ELU(alpha=1.0).
  static constexpr std::array attributes{Attribute{"alpha", 1.0}};
  static constexpr std::string_view pytorch = "torch.nn.functional.elu(x, alpha)";

  template <class T>
  KBV_HOST_DEVICE static T apply(T x, Params<T> p) {
    const T alpha = p[0];
    // expm1, as PyTorch's kernels: exp(x) − 1 loses every digit as x approaches 0.
    return x > T(0) ? x : alpha * math::expm1(x);
  }
};

}  // namespace kbv::ops::elu
