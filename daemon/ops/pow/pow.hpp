// ops/pow/pow.hpp — pow: x raised to a scalar exponent (torch.pow(x, exponent)).
#pragma once

#include <cmath>

#include "ops/common/elementwise.hpp"

namespace kbv::ops::pow {

struct Definition : UnaryDefinition {
  static constexpr std::string_view name = "pow";
  // x ** 2, the form KernelBench writes most (MSE, L1 #94).
  static constexpr std::array attributes{Attribute{"exponent", 2.0}};
  static constexpr std::string_view semantics = "inputs drawn nonnegative for a fractional exponent";
  static constexpr std::string_view pytorch = "torch.pow(x, exponent)";

  // A fractional power of a negative number is NaN: such inputs are drawn as magnitudes.
  static InputDomain input_domain(const Attrs& attrs) {
    const double exponent = op_support::real_attr(name, attrs, "exponent", attributes[0].default_value);
    return exponent == std::floor(exponent) ? InputDomain::any : InputDomain::nonnegative;
  }

  template <class T>
  KBV_HOST_DEVICE static T apply(T x, Params<T> p) {
    // pow itself (correctly rounded for an exponent of 2 in both precisions, as x·x is).
    return math::pow(x, p[0]);
  }
};

}  // namespace kbv::ops::pow
