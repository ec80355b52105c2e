// ops/cat/cat.hpp — cat: concatenates 2 to 64 tensors along an axis (torch.cat).
#pragma once

#include <vector>

#include "ops/common/layout_definition.hpp"

namespace kbv::ops::cat {

// At most this many inputs: DenseNet-201's last dense block concatenates 49 tensors (KernelBench
// L3 #16); the importer refuses a longer cat (an RNN unrolled over 256 steps, L3 #34).
constexpr size_t kMaxCatInputs = 64;

struct Definition : layout::LayoutDefinition {
  static constexpr std::string_view name = "cat";
  static constexpr std::string_view inputs = "x0, x1, … (2 to 64)";
  static constexpr size_t min_inputs = 2;
  static constexpr size_t max_inputs = kMaxCatInputs;
  // torch.cat's default dim.
  static constexpr std::array attributes{Attribute{"axis", 0}};
  static constexpr std::string_view semantics = "inputs of equal rank and dims except along axis";
  static constexpr std::string_view pytorch = "torch.cat([x0, x1, ...], dim=axis)";
};

// The output shape and copies of one application (host.cpp); throws OpError for inputs or
// attributes the op refuses. Every face runs it.
layout::CopyPlan plan(const std::vector<Shape>& inputs, const Attrs& attrs);

}  // namespace kbv::ops::cat
