// ops/relu/relu.hpp — relu: max(x, 0), NaN propagating (torch.relu).
#pragma once

#include "ops/common/elementwise.hpp"

namespace kbv::ops::relu {

struct Definition : UnaryDefinition {
  static constexpr std::string_view name = "relu";
  static constexpr std::string_view pytorch = "torch.relu(x)";

  template <class T>
  KBV_HOST_DEVICE static T apply(T x, Params<T>) {
    return x < T(0) ? T(0) : x;  // NaN < 0 is false, so NaN propagates as in torch.relu
  }
};

}  // namespace kbv::ops::relu
