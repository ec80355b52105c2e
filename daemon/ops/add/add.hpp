// ops/add/add.hpp — add: a + b with numpy broadcasting (torch.add).
#pragma once

#include "ops/common/elementwise.hpp"

namespace kbv::ops::add {

struct Definition : BinaryDefinition {
  static constexpr std::string_view name = "add";
  static constexpr std::string_view pytorch = "a + b";

  template <class T>
  KBV_HOST_DEVICE static T apply(T a, T b, Params<T>) {
    return a + b;
  }
};

}  // namespace kbv::ops::add
