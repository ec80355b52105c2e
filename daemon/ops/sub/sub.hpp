// ops/sub/sub.hpp — sub: a − b with numpy broadcasting (torch.sub).
#pragma once

#include "ops/common/elementwise.hpp"

namespace kbv::ops::sub {

struct Definition : BinaryDefinition {
  static constexpr std::string_view name = "sub";
  static constexpr std::string_view pytorch = "a - b";

  template <class T>
  KBV_HOST_DEVICE static T apply(T a, T b, Params<T>) {
    return a - b;
  }
};

}  // namespace kbv::ops::sub
