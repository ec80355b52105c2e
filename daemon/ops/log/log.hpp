// ops/log/log.hpp — log: the natural logarithm, log 0 = −inf, NaN below 0 (torch.log).
#pragma once

#include "ops/common/elementwise.hpp"

namespace kbv::ops::log {

struct Definition : UnaryDefinition {
  static constexpr std::string_view name = "log";
  static constexpr std::string_view semantics = "natural log; inputs drawn nonnegative";
  static constexpr std::string_view pytorch = "torch.log(x)";

  // NaN below 0: a problem input it reads is drawn as magnitudes (inputs/input_domain.hpp).
  static InputDomain input_domain(const Attrs&) { return InputDomain::nonnegative; }

  template <class T>
  KBV_HOST_DEVICE static T apply(T x, Params<T>) {
    return math::log(x);
  }
};

}  // namespace kbv::ops::log
