// graph/error_scale_graph.hpp — the scale of the error an honest TF32 product leaves in each
// output element, as a graph of kbv's own ops that either reference engine runs.
//
// TF32 rounds each operand of a product to 10 mantissa bits, so a matmul's or convolution's error
// grows with the products it sums, sqrt(Σ_k x_k²·w_k²), not with the output: where a hidden family
// gives every dot product a large systematic part and an activation or bias leaves only small
// differences of large sums, an honest TF32 kernel misses a bound set by the output's own RMS
// (KernelBench L2 #76 on `trend`, H200 2026-12-04: 2 of 8.4M outputs at 13.7×;
// bench/tolerance/cancellation_gemm_relu.py models it). An output that fails the default rule is
// then judged by its error scale S: each element within atol·max(the default allowance, S), and
// ‖out − ref‖ / ‖S‖ within half the problem's rel_l2 (verify/compare.hpp, kErrorScaleRelL2Share).
//
// S is propagated from every tensor-core node to the outputs through ops whose error it bounds:
//   product (matmul, bmm, linear, conv*, conv_transpose*)  S = sqrt(op(a² + S_a², b² + S_b²)), no bias
//   add, sub                                               S = S_a + S_b (triangle inequality)
//   mul / div by a tensor without a scale                  S_a·|b| / S_a / |b|
//   scale c                                                |c|·S;  add_scalar, rsub_scalar: S
//   Lipschitz activations (relu, gelu, tanh, …)            L·S with L the op's Lipschitz constant
//   layout ops (transpose, slice, cat, …)                  the same op applied to S
//   sum / mean                                             sqrt(sum(S²)) (/ n): independent errors
//   amax, amin, max pooling                                amax / max pooling of S
// Any other op (softmax, a normalisation, …) ends the path: its output has no error scale and is
// judged by the default rule, which only ever holds it to a stricter bound. Problem inputs have
// none (they are exact), so a problem without a tensor-core node has no error-scale graph.
#pragma once

#include <optional>
#include <vector>

#include "spec/problem.hpp"

namespace kbv {

struct ErrorScaleGraph {
  // The problem's inputs unchanged; one output per original output that has an error scale, S
  // itself (not S²), of that output's shape.
  ResolvedProblem problem;
  // Per original output, in declaration order: its index among problem's outputs, or −1 when it
  // has no error scale.
  std::vector<int> scale_of_output;
};

// The graph of `problem`'s error scales, or nullopt when no output has one. Throws OpError only
// on a graph the loader would have refused (a node's shape inference failing).
std::optional<ErrorScaleGraph> error_scale_graph(const ResolvedProblem& problem);

}  // namespace kbv
