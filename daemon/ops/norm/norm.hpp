// ops/norm/norm.hpp — norm: the p-norm over adjacent axes, (Σ|x|^p)^(1/p)
// (torch.linalg.vector_norm; torch.norm(x, p='fro') is p 2 over every axis).
#pragma once

#include <cmath>
#include <string>

#include "ops/common/definition.hpp"
#include "ops/op_support.hpp"

namespace kbv::ops::norm {

struct Definition {
  static constexpr std::string_view name = "norm";
  static constexpr OpCategory category = OpCategory::axis;
  static constexpr std::string_view inputs = "x";
  static constexpr size_t min_inputs = 1;
  static constexpr size_t max_inputs = 1;
  // torch.linalg.vector_norm(ord=2); as sum, the last axis kept by default.
  static constexpr std::array attributes{Attribute{"p", 2}, Attribute{"axis", -1}, Attribute{"count", 1},
                                         Attribute{"keepdim", 1}};
  static constexpr PrecisionClass precision = PrecisionClass::exact;
  static constexpr std::string_view semantics = "p > 0 and finite; squares and sqrt for p = 2";
  static constexpr std::string_view flops_rule = "2 per input element (the power, the add)";
  static constexpr std::string_view pytorch =
      "torch.linalg.vector_norm(x, p, dim=[axis, …, axis + count − 1], keepdim=keepdim)";

  // Infinite p (a max) and p ≤ 0 (counts and harmonic forms) are other reductions.
  static double order(const Attrs& attrs) {
    const double p = op_support::real_attr(name, attrs, "p", attributes[0].default_value);
    if (!(p > 0))
      throw OpError("norm: attribute p is " + op_support::format_number(p) + "; expected a finite p > 0");
    return p;
  }
};

}  // namespace kbv::ops::norm
