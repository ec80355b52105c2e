// ops/hardswish/hardswish.hpp — hardswish: x·relu6(x + 3)/6, NaN propagating
// (torch.nn.functional.hardswish).
#pragma once

#include "ops/common/elementwise.hpp"

namespace kbv::ops::hardswish {

struct Definition : UnaryDefinition {
  static constexpr std::string_view name = "hardswish";
  static constexpr std::string_view semantics = "x · min(max(x + 3, 0), 6) / 6";
  static constexpr std::string_view pytorch = "torch.nn.functional.hardswish(x)";

  template <class T>
  KBV_HOST_DEVICE static T apply(T x, Params<T>) {
    // As PyTorch's kernel: x · std::min(std::max(x + 3, 0), 6) / 6; NaN passes both.
    T gate = x + T(3);
    gate = gate < T(0) ? T(0) : gate;
    gate = T(6) < gate ? T(6) : gate;
    return x * gate / T(6);
  }
};

}  // namespace kbv::ops::hardswish
