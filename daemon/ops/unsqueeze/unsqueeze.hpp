// ops/unsqueeze/unsqueeze.hpp — unsqueeze: inserts an axis of extent 1 (torch.unsqueeze).
#pragma once

#include <vector>

#include "ops/common/layout_definition.hpp"

namespace kbv::ops::unsqueeze {

struct Definition : layout::LayoutDefinition {
  static constexpr std::string_view name = "unsqueeze";
  // torch.unsqueeze has no default dim; axis is in [−rank−1, rank].
  static constexpr std::array attributes{Attribute{"axis", 0}};
  static constexpr std::string_view semantics =
      "axis in [−rank−1, rank], negative counting from the end of the output; a copy";
  static constexpr std::string_view pytorch = "torch.unsqueeze(x, dim=axis)";
};

// The output shape and copies of one application (host.cpp); throws OpError for inputs or
// attributes the op refuses. Every face runs it.
layout::CopyPlan plan(const std::vector<Shape>& inputs, const Attrs& attrs);

}  // namespace kbv::ops::unsqueeze
