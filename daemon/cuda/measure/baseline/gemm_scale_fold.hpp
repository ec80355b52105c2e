// baseline/gemm_scale_fold.hpp — a linear layer whose output only goes through elementwise nodes
// that scale it (x·c, x + x, x − x·c: a constant times the layer's output), or a ReLU and positive
// scalings (c·relu(x)), runs as one cuBLASLt matmul with that constant as alpha, bias pre-scaled,
// and the ReLU as its epilogue (RELU_BIAS: relu(alpha·x·Wᵀ + alpha·b) = alpha·relu(x·Wᵀ + b) for
// alpha > 0), instead of a GEMM and an elementwise pass over its output: torch.compile fuses the
// same tail into its GEMM's epilogue. The pass cost the library baseline 8–14 % on
// matmul_scale_residual (issue #13's table); an MLP's ReLU passes are one kernel per hidden layer
// (sixteen on KernelBench L3 #3, whose library trailed compile by 9 %: docs/results/h100/calibrate-torch.md).
#pragma once

#include <optional>
#include <vector>

#include "measure/baseline/elementwise_groups.hpp"
#include "spec/problem.hpp"

namespace kbv::cuda {

// What a tail computes from its input z: scale·z, or, with `relu`, scale·relu(z) with scale > 0.
struct GemmTail {
  double scale = 1.0;
  bool relu = false;
};

// The tail `unit` is of `input`, when every node of it is a scale, a relu, or an add or sub of two
// values that are each such a tail of the same kind (relu(z) + relu(z) is one, relu(z) + z is
// not): the fused chain's own values or `input`. nullopt when any node is anything else or reads
// another tensor, the constant is 0 or not finite, or a ReLU'd value is scaled by c ≤ 0 (c·relu(z)
// is then no ReLU epilogue's output).
std::optional<GemmTail> gemm_tail_of(const Problem& problem, const BaselineUnit& unit, const std::string& input);

// The constant `unit` multiplies `input` by: gemm_tail_of without a ReLU.
std::optional<double> scalar_multiple_of(const Problem& problem, const BaselineUnit& unit, const std::string& input);

// Merges each `linear` unit with the fused unit right after it when that unit reads only the
// linear's output, nothing else reads it, it is no problem output, and the tail is a GemmTail of
// it. The merged unit keeps the linear's inputs, takes the tail's output, and carries the multiple
// as gemm_scale and the ReLU as gemm_relu. Other units are left as they are.
std::vector<BaselineUnit> fold_gemm_scales(const ResolvedProblem& problem, std::vector<BaselineUnit> units);

}  // namespace kbv::cuda
