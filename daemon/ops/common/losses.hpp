// ops/common/losses.hpp — what the losses' host faces share (smooth_l1_loss, kl_div,
// triplet_margin_loss): inputs of one shape, the rank-0 output ([], one element, as PyTorch's
// reduction='mean'), and the sum behind every mean, taken pairwise so that the fp32 host
// baseline's rounding grows with log n rather than n (a sequential fp32 sum of 10⁶ positive
// terms drifts by ~1e-4 relative, far above the exact class' 1e-5 rel-L2 bound).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ops/op_support.hpp"

namespace kbv::ops {

// Below this many terms a pairwise sum adds sequentially: numpy's PW_BLOCKSIZE
// (numpy/_core/src/umath/loops_utils.h.src), where the recursion's overhead outweighs its gain.
constexpr int64_t kPairwiseBlock = 128;

// Σ term(i) for i in [begin, end), in T, halving the range until a block is short.
template <class T, class Term>
T pairwise_sum(int64_t begin, int64_t end, const Term& term) {
  if (end - begin <= kPairwiseBlock) {
    T sum = T(0);
    for (int64_t i = begin; i < end; ++i) sum += term(i);
    return sum;
  }
  const int64_t middle = begin + (end - begin) / 2;
  return pairwise_sum<T>(begin, middle, term) + pairwise_sum<T>(middle, end, term);
}

// Σ term(a[i], b[i]) over the elements of a loss' two inputs of one shape, pairwise.
template <class T, class Term>
T pairwise_sum_of_pairs(const OpArgs<T>& args, const Term& term) {
  const T* a = args.inputs.at(0);
  const T* b = args.inputs.at(1);
  return pairwise_sum<T>(0, numel(args.input_shapes.at(0)), [&](int64_t i) { return term(a[i], b[i]); });
}

// Throws OpError unless every input has the first one's shape; `names` lists them
// ("anchor, positive, negative").
inline void check_same_shapes(std::string_view op, std::string_view names,
                              const std::vector<Shape>& inputs) {
  for (size_t i = 1; i < inputs.size(); ++i)
    if (inputs[i] != inputs[0])
      throw OpError(std::string(op) + ": input " + std::to_string(i) + " has shape " +
                    to_string(inputs[i]) + " but input 0 has " + to_string(inputs[0]) +
                    "; expected " + std::string(names) + " of one shape (no broadcasting)");
}

}  // namespace kbv::ops
