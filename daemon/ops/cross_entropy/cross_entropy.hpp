// ops/cross_entropy/cross_entropy.hpp — the mean cross-entropy of logits against class indices
// (torch.nn.functional.cross_entropy with its defaults).
#pragma once

#include <array>

#include "ops/common/definition.hpp"

namespace kbv::ops::cross_entropy {

struct Definition {
  static constexpr std::string_view name = "cross_entropy";
  static constexpr OpCategory category = OpCategory::axis;
  static constexpr std::string_view inputs = "logits[N,C], targets[N] (int64)";
  static constexpr size_t min_inputs = 2;
  static constexpr size_t max_inputs = 2;
  // F.cross_entropy's other arguments are not attributes: weight=None, reduction='mean' and
  // label_smoothing=0 are the only forms kbv computes, and ignore_index's default −100 never
  // matches a target (check_input_values keeps every target in [0, C)); the importer refuses
  // the rest (scripts/kernelbench/kbimport/aten_map.py).
  static constexpr std::array<Attribute, 0> attributes{};
  static constexpr PrecisionClass precision = PrecisionClass::exact;
  static constexpr std::string_view semantics =
      "mean over rows of logsumexp(logits[n]) − logits[n, targets[n]] (subtracts the row max); targets an int64 input "
      "with values in [0, C); no class weights, no label smoothing; a rank-0 output";
  static constexpr std::string_view flops_rule =
      "numel(logits) (each row's C − 1 adds of its exponentials plus its one subtraction; exp, max and the mean not counted)";
  static constexpr std::string_view pytorch = "torch.nn.functional.cross_entropy(logits, targets)";
};

}  // namespace kbv::ops::cross_entropy
