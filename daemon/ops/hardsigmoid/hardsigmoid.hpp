// ops/hardsigmoid/hardsigmoid.hpp — hardsigmoid: relu6(x + 3) / 6, NaN propagating
// (torch.nn.functional.hardsigmoid).
#pragma once

#include "ops/common/elementwise.hpp"

namespace kbv::ops::hardsigmoid {

struct Definition : UnaryDefinition {
  static constexpr std::string_view name = "hardsigmoid";
  static constexpr std::string_view semantics = "min(max(x + 3, 0), 6) / 6";
  static constexpr std::string_view pytorch = "torch.nn.functional.hardsigmoid(x)";

  template <class T>
  KBV_HOST_DEVICE static T apply(T x, Params<T>) {
    // As PyTorch's kernel: std::min(std::max(x + 3, 0), 6) · (1/6); NaN passes both.
    T y = x + T(3);
    y = y < T(0) ? T(0) : y;
    y = T(6) < y ? T(6) : y;
    return y * (T(1) / T(6));
  }
};

}  // namespace kbv::ops::hardsigmoid
