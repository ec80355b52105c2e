// ops/mul/mul.hpp — mul: a · b elementwise with numpy broadcasting (torch.mul).
#pragma once

#include "ops/common/elementwise.hpp"

namespace kbv::ops::mul {

struct Definition : BinaryDefinition {
  static constexpr std::string_view name = "mul";
  static constexpr std::string_view pytorch = "a * b";

  template <class T>
  KBV_HOST_DEVICE static T apply(T a, T b, Params<T>) {
    return a * b;
  }
};

}  // namespace kbv::ops::mul
