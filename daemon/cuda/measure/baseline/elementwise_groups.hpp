// baseline/elementwise_groups.hpp — how the CUDA baseline splits a problem's graph into the
// units it launches: one node, or a chain of elementwise nodes fused into one kernel, as
// torch.compile fuses pointwise ops after a GEMM or a convolution (conv → relu → + bias is one
// conv and one pointwise kernel there, three kernels in eager).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "spec/problem.hpp"

namespace kbv::cuda {

// One launch of the baseline: graph nodes (indices in graph order) that read `inputs` and write
// `output`. A unit of one node is that node, reading its inputs as the node lists them; a unit
// of several is a fused elementwise chain reading each tensor produced outside it once, first
// use first.
struct BaselineUnit {
  std::vector<size_t> nodes;
  std::vector<std::string> inputs;
  std::string output;
  // A GEMM node followed by elementwise nodes that only scale its output, run as the GEMM with
  // this alpha (baseline/gemm_scale_fold.hpp): nodes[0] is the GEMM, inputs its inputs; with
  // gemm_relu, a ReLU among them, run as the GEMM's epilogue.
  std::optional<double> gemm_scale;
  bool gemm_relu = false;
  // A 2-D convolution followed by an elementwise chain over its output, run as the convolution
  // with the chain as its epilogue (baseline/conv_epilogue_fold.hpp): nodes[0] is the
  // convolution, inputs its inputs and then the chain's other operands.
  bool conv_epilogue = false;
  bool fused() const { return nodes.size() > 1 && !gemm_scale && !conv_epilogue; }
};

// Whether `value` leaves `unit`: it is a problem output, or a node outside the unit reads it. A
// fold that merges the unit into the step writing `value` may drop the tensor only when it does not.
bool leaves_unit(const Problem& problem, const std::string& value, const BaselineUnit& unit);

// The folds' walk (the GEMM scale fold, the convolution epilogue fold): each unit is offered the
// one after it, and `absorb(unit, next)` either merges `next` into `unit` and says so, or leaves
// both as they are; a unit that absorbed its successor is not offered the one after that.
std::vector<BaselineUnit> fold_into_previous(std::vector<BaselineUnit> units,
                                             const std::function<bool(BaselineUnit& unit, const BaselineUnit& next)>& absorb);

// Longest chain one fused kernel takes (its register file) and most tensors it reads.
constexpr size_t kMaxFusedNodes = 8;
constexpr size_t kMaxFusedInputs = 6;

// Splits the graph into units. A fused chain is a run of consecutive nodes, each `fusable`,
// each after the first reading the previous one's output and no earlier value of the chain (the
// kernel keeps one value per element: a node reading an earlier value splits the chain after that
// value, which leaves it as a tensor),
// all with the chain's output shape (operands from outside may broadcast into it, the chain's
// own values never do), and none but the last writing a tensor that a node outside the chain
// reads or that is a problem output: a run is cut after the first value that leaves it.
// `fusable` says whether an op is an elementwise op the fused kernel knows. Without fusion
// (`fuse` false) every node is its own unit.
std::vector<BaselineUnit> plan_units(const ResolvedProblem& problem,
                                     const std::function<bool(std::string_view op)>& fusable, bool fuse = true);

}  // namespace kbv::cuda
