// baseline/gemm_scale_fold.hpp — a linear layer whose output only goes through elementwise nodes
// that scale it (x·c, x + x, x − x·c: a constant times the layer's output) runs as one cuBLASLt
// matmul with that constant as alpha, bias pre-scaled, instead of a GEMM and an elementwise pass
// over its output: torch.compile fuses the same tail into its GEMM's epilogue, and the pass cost
// the library baseline 8–14 % on matmul_scale_residual (issue #13's table).
#pragma once

#include <optional>
#include <vector>

#include "measure/baseline/elementwise_groups.hpp"
#include "spec/problem.hpp"

namespace kbv::cuda {

// The constant `unit` multiplies `input` by, when every node of it is a scale, or an add or sub
// of two values that are each such a multiple (the fused chain's own values or `input`); nullopt
// when any node is anything else or reads another tensor, or the constant is 0 or not finite.
std::optional<double> scalar_multiple_of(const Problem& problem, const BaselineUnit& unit, const std::string& input);

// Merges each `linear` unit with the fused unit right after it when that unit reads only the
// linear's output, nothing else reads it, it is no problem output, and the tail is a scalar
// multiple of it. The merged unit keeps the linear's inputs, takes the tail's output, and carries
// the multiple as gemm_scale. Other units are left as they are.
std::vector<BaselineUnit> fold_gemm_scales(const ResolvedProblem& problem, std::vector<BaselineUnit> units);

}  // namespace kbv::cuda
