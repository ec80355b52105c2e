// baseline/node_step.hpp — one graph node of a baseline, prepared once (descriptors, algorithm
// choice, launch geometry) and run many times: one library call or kernel, as PyTorch eager.
#pragma once

#include <cuda_runtime_api.h>

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "measure/baseline/library_context.hpp"
#include "spec/problem.hpp"

namespace kbv::cuda::measure {

class NodeStep {
 public:
  virtual ~NodeStep() = default;
  // `inputs` in the node's input order; all device pointers.
  virtual void run(std::span<const float* const> inputs, float* output, cudaStream_t stream) = 0;
  // What runs, for logs: e.g. "cublasSgemm m=4096 n=4096 k=4096 (TF32 tensor-op math)".
  virtual std::string describe() const = 0;
};

// What a step factory needs to know about its node.
struct NodeContext {
  const Node& node;
  const std::vector<Shape>& input_shapes;
  const Shape& output_shape;
  // The node's output times this (a scaling tail folded into a GEMM: gemm_scale_fold.hpp); only
  // linear's step takes one other than 1.
  double output_scale = 1.0;
  // A ReLU folded in after the scale (gemm_scale_fold.hpp): likewise linear's alone.
  bool relu_epilogue = false;
  // Attribute value from the node, else the op's default; throws std::invalid_argument naming
  // the node when neither has it.
  double attr(const std::string& name) const;
  std::string where() const;  // "node 'conv' (conv2d)"
};

// The step of the node's op: its folder's `make_baseline_step` face (daemon/ops/<name>/
// baseline.cu). Throws std::invalid_argument (OpError for shapes the op refuses) for a node or
// a configuration the CUDA baseline cannot run.
std::unique_ptr<NodeStep> make_node_step(const NodeContext& node, LibraryContext& context);

}  // namespace kbv::cuda::measure
