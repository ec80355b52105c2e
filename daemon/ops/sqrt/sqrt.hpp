// ops/sqrt/sqrt.hpp — sqrt: the square root, NaN below 0 (torch.sqrt).
#pragma once

#include "ops/common/elementwise.hpp"

namespace kbv::ops::sqrt {

struct Definition : UnaryDefinition {
  static constexpr std::string_view name = "sqrt";
  static constexpr std::string_view semantics = "inputs drawn nonnegative";
  static constexpr std::string_view pytorch = "torch.sqrt(x)";

  // NaN below 0: a problem input it reads is drawn as magnitudes (inputs/input_domain.hpp).
  static InputDomain input_domain(const Attrs&) { return InputDomain::nonnegative; }

  template <class T>
  KBV_HOST_DEVICE static T apply(T x, Params<T>) {
    return math::sqrt(x);
  }
};

}  // namespace kbv::ops::sqrt
