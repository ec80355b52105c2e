// ops/softplus/softplus.hpp — softplus: log(1 + exp(beta·x)) / beta, or x where beta·x is above
// threshold (torch.nn.functional.softplus).
#pragma once

#include "ops/common/elementwise.hpp"

namespace kbv::ops::softplus {

struct Definition : UnaryDefinition {
  static constexpr std::string_view name = "softplus";
  // torch.nn.Softplus(beta=1.0, threshold=20.0).
  static constexpr std::array attributes{Attribute{"beta", 1.0}, Attribute{"threshold", 20.0}};
  static constexpr std::string_view semantics = "x where beta·x > threshold";
  static constexpr std::string_view pytorch = "torch.nn.functional.softplus(x, beta, threshold)";

  // It divides by beta.
  static void check_attributes(const Params<double>& p) {
    if (p[0] == 0) throw OpError("softplus: attribute beta is 0; expected a nonzero number");
  }

  template <class T>
  KBV_HOST_DEVICE static T apply(T x, Params<T> p) {
    const T beta = p[0], threshold = p[1];
    return x * beta > threshold ? x : math::log1p(math::exp(x * beta)) / beta;
  }
};

}  // namespace kbv::ops::softplus
