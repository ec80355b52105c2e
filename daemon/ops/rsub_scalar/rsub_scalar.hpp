// ops/rsub_scalar/rsub_scalar.hpp — rsub_scalar: value − x (torch.rsub(x, value); 1 − x in
// KernelBench L1 #100).
#pragma once

#include "ops/common/elementwise.hpp"

namespace kbv::ops::rsub_scalar {

struct Definition : UnaryDefinition {
  static constexpr std::string_view name = "rsub_scalar";
  static constexpr std::array attributes{Attribute{"value", 0.0}};
  static constexpr std::string_view pytorch = "value - x";

  template <class T>
  KBV_HOST_DEVICE static T apply(T x, Params<T> p) {
    return p[0] - x;
  }
};

}  // namespace kbv::ops::rsub_scalar
