// ops/hardtanh/hardtanh.hpp — hardtanh: x clamped to [min_val, max_val], NaN propagating
// (torch.nn.functional.hardtanh, PyTorch's clamp).
#pragma once

#include <string>

#include "ops/common/elementwise.hpp"

namespace kbv::ops::hardtanh {

struct Definition : UnaryDefinition {
  static constexpr std::string_view name = "hardtanh";
  // torch.nn.Hardtanh(min_val=-1.0, max_val=1.0).
  static constexpr std::array attributes{Attribute{"min_val", -1.0}, Attribute{"max_val", 1.0}};
  static constexpr std::string_view pytorch =
      "torch.nn.functional.hardtanh(x, min_val, max_val)";

  // F.hardtanh: "min_val cannot be greater than max_val".
  static void check_attributes(const Params<double>& p) {
    if (p[0] > p[1])
      throw OpError("hardtanh: min_val " + op_support::format_number(p[0]) + " is above max_val " +
                    op_support::format_number(p[1]) + "; expected min_val <= max_val");
  }

  template <class T>
  KBV_HOST_DEVICE static T apply(T x, Params<T> p) {
    const T min_val = p[0], max_val = p[1];
    return x < min_val ? min_val : (x > max_val ? max_val : x);  // NaN fails both: NaN out
  }
};

}  // namespace kbv::ops::hardtanh
