// graph/in_place.hpp — where each tensor of the fp64 reference graph lives when elementwise ops
// write over the operand they read last: the buffer plan of both reference executors (device:
// cuda/data/reference_graph.cpp; host: graph/run_graph.cpp) and the footprint's estimate of it
// (eval/device_footprint.cpp).
//
// An elementwise op (unary, or binary with that operand at the output's own shape) computes
// element i from element i of its operand alone, so it may write its output into the buffer of an
// intermediate it is the last to read: a chain conv → relu → add takes one buffer, not three.
// When the chain ends in a graph output, its first tensor is written straight into the output's
// slot, and the chain has no intermediate buffer at all. Why: the products' error scale of
// KernelBench's conv2d at its default size is sqrt(conv(x², w²)), whose convolution (17.1 GB in
// fp64) no longer needs a buffer beside the scale it becomes, which took that problem's trusted
// side from 94.2 GB to 77.1 GB: within an 80 GB H100 (docs/results/h100/daemon.md, r92).
#pragma once

#include <cstddef>
#include <map>
#include <string>

#include "spec/problem.hpp"

namespace kbv {

struct ReferenceBuffers {
  // Per tensor a node writes: the tensor whose buffer holds it — itself (a buffer of its own, or
  // its own output slot), an earlier intermediate it overwrites, or the graph output whose slot
  // holds its whole chain.
  std::map<std::string, std::string> home;
  // Per intermediate that owns a buffer (home[t] == t, not a graph output): the index of the last
  // node that reads any tensor the buffer holds; the buffer is free after it.
  std::map<std::string, size_t> last_use;
};

ReferenceBuffers plan_reference_buffers(const ResolvedProblem& problem);

// The same without overwriting: every intermediate a buffer of its own, freed after its last
// reader (the baselines' liveness, which eval/device_footprint.cpp estimates).
ReferenceBuffers plan_separate_buffers(const ResolvedProblem& problem);

// The most intermediate elements alive at once under `plan` (graph outputs and inputs not
// counted), node by node.
double peak_intermediates(const ResolvedProblem& problem, const ReferenceBuffers& plan);

}  // namespace kbv
