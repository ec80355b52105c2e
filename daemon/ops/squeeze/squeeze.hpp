// ops/squeeze/squeeze.hpp — squeeze: removes one axis of extent 1 (torch.squeeze(x, dim)).
#pragma once

#include <vector>

#include "ops/common/layout_definition.hpp"

namespace kbv::ops::squeeze {

struct Definition : layout::LayoutDefinition {
  static constexpr std::string_view name = "squeeze";
  // torch.squeeze(x, dim) has no default dim.
  static constexpr std::array attributes{Attribute{"axis", 0}};
  static constexpr std::string_view semantics =
      "the axis must have extent 1 (PyTorch leaves any other unchanged; kbv refuses it); a copy";
  static constexpr std::string_view pytorch = "torch.squeeze(x, dim=axis)";
};

// The output shape and copies of one application (host.cpp); throws OpError for inputs or
// attributes the op refuses. Every face runs it.
layout::CopyPlan plan(const std::vector<Shape>& inputs, const Attrs& attrs);

}  // namespace kbv::ops::squeeze
