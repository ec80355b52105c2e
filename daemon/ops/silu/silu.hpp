// ops/silu/silu.hpp — silu (swish): x·sigmoid(x) (torch.nn.functional.silu).
#pragma once

#include "ops/common/elementwise.hpp"

namespace kbv::ops::silu {

struct Definition : UnaryDefinition {
  static constexpr std::string_view name = "silu";
  static constexpr std::string_view semantics = "x / (1 + exp(−x))";
  static constexpr std::string_view pytorch = "torch.nn.functional.silu(x)";

  template <class T>
  KBV_HOST_DEVICE static T apply(T x, Params<T>) {
    // As PyTorch's kernel: x / (1 + exp(−x)); exp(−x) overflowing to +inf gives −0.
    return x / (T(1) + math::exp(-x));
  }
};

}  // namespace kbv::ops::silu
