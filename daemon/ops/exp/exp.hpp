// ops/exp/exp.hpp — exp: e^x (torch.exp).
#pragma once

#include "ops/common/elementwise.hpp"

namespace kbv::ops::exp {

struct Definition : UnaryDefinition {
  static constexpr std::string_view name = "exp";
  static constexpr std::string_view pytorch = "torch.exp(x)";

  template <class T>
  KBV_HOST_DEVICE static T apply(T x, Params<T>) {
    return math::exp(x);
  }
};

}  // namespace kbv::ops::exp
