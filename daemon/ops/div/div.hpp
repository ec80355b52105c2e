// ops/div/div.hpp — div: a / b with numpy broadcasting, IEEE division (x/0 = ±inf, 0/0 = NaN)
// (torch.div).
#pragma once

#include "ops/common/elementwise.hpp"

namespace kbv::ops::div {

struct Definition : BinaryDefinition {
  static constexpr std::string_view name = "div";
  static constexpr std::string_view semantics = "numpy broadcasting, right-aligned; IEEE division";
  static constexpr std::string_view pytorch = "a / b";

  template <class T>
  KBV_HOST_DEVICE static T apply(T a, T b, Params<T>) {
    return a / b;
  }
};

}  // namespace kbv::ops::div
