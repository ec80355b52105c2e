// graph/run_graph.hpp — run a resolved problem's graph on the host, node by node: in fp64 it
// is the trusted reference, in fp32 the eager host baseline.
#pragma once

#include <vector>

#include "spec/problem.hpp"
#include "tensor/shape.hpp"

namespace kbv {

// Runs every node in order; returns the problem's outputs in declaration order.
// `inputs[i]` holds numel(problem.input_shapes[i]) elements.
std::vector<HostTensor<double>> run_reference_f64(const ResolvedProblem& problem, const std::vector<const double*>& inputs);
std::vector<HostTensor<float>> run_baseline_f32(const ResolvedProblem& problem, const std::vector<const float*>& inputs);

// The same, writing into caller-owned output buffers (no output allocation per call).
void run_baseline_f32_into(const ResolvedProblem& problem, const std::vector<const float*>& inputs,
                           const std::vector<float*>& outputs);

}  // namespace kbv
