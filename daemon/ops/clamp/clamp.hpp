// ops/clamp/clamp.hpp — clamp: x limited to [min, max], NaN propagating, min > max giving max
// everywhere (torch.clamp; hardtanh, relu6 and torch.min(x, torch.tensor(c)) map onto it).
#pragma once

#include <limits>

#include "ops/common/elementwise.hpp"

namespace kbv::ops::clamp {

struct Definition : UnaryDefinition {
  static constexpr std::string_view name = "clamp";
  // torch.clamp(x, min=None, max=None): no bound is an infinite one.
  static constexpr std::array attributes{Attribute{"min", -std::numeric_limits<double>::infinity()},
                                         Attribute{"max", std::numeric_limits<double>::infinity()}};
  static constexpr bool infinite_attributes = true;
  static constexpr std::string_view semantics = "min(max(x, min), max): min > max gives max; ±inf is no bound";
  static constexpr std::string_view pytorch = "torch.clamp(x, min, max)";

  template <class T>
  KBV_HOST_DEVICE static T apply(T x, Params<T> p) {
    const T low = p[0], high = p[1];
    // As PyTorch's clamp kernel: min(max(x, low), high), NaN failing both comparisons.
    const T raised = x < low ? low : x;
    return raised > high ? high : raised;
  }
};

}  // namespace kbv::ops::clamp
