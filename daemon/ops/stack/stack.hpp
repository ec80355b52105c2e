// ops/stack/stack.hpp — stack: stacks 2 to 64 equal-shaped tensors along a new axis (torch.stack).
#pragma once

#include <vector>

#include "ops/common/layout_definition.hpp"

namespace kbv::ops::stack {

// At most this many inputs, as cat (ops/cat/cat.hpp): stack is a cat along a new axis.
constexpr size_t kMaxStackInputs = 64;

struct Definition : layout::LayoutDefinition {
  static constexpr std::string_view name = "stack";
  static constexpr std::string_view inputs = "x0, x1, … (2 to 64)";
  static constexpr size_t min_inputs = 2;
  static constexpr size_t max_inputs = kMaxStackInputs;
  // torch.stack's default dim; axis is in [−rank−1, rank] of the inputs.
  static constexpr std::array attributes{Attribute{"axis", 0}};
  static constexpr std::string_view semantics =
      "inputs of equal shape; the new axis of extent n (the input count) at axis, in [−rank−1, "
      "rank]";
  static constexpr std::string_view pytorch = "torch.stack([x0, x1, ...], dim=axis)";
};

// The output shape and copies of one application (host.cpp); throws OpError for inputs or
// attributes the op refuses. Every face runs it.
layout::CopyPlan plan(const std::vector<Shape>& inputs, const Attrs& attrs);

}  // namespace kbv::ops::stack
