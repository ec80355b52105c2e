// baseline/cuda_baseline.cpp — builds the launch units (a node, or a fused elementwise chain),
// their steps and the buffer plan, then runs them.
#include "measure/baseline/cuda_baseline.hpp"

#include <stdexcept>

#include "measure/baseline/buffer_plan.hpp"
#include "measure/baseline/elementwise_groups.hpp"
#include "measure/baseline/library_context.hpp"
#include "measure/baseline/node_step.hpp"
#include "measure/support/handles.hpp"
#include "ops/common/baseline/fused_elementwise.hpp"

namespace kbv::cuda {

struct CudaBaseline::Impl {
  Impl(const ResolvedProblem& resolved, MathMode mode, bool fuse)
      : problem(resolved),
        math_mode(mode),
        context(mode),
        units(plan_units(resolved, ops::baseline::fusable_elementwise, fuse)),
        plan(plan_buffers(resolved, units)) {
    for (size_t s = 0; s < plan.slot_bytes.size(); ++s)
      slots.emplace_back(plan.slot_bytes[s], "baseline intermediate");
    for (const BaselineUnit& unit : units) {
      std::vector<TensorLocation> sources;
      for (const std::string& name : unit.inputs) sources.push_back(location_of(name));
      if (unit.fused()) {
        steps.push_back(ops::baseline::make_fused_elementwise_step(problem, unit));
      } else {
        const Node& node = problem.problem.graph[unit.nodes.front()];
        std::vector<Shape> input_shapes;
        for (const std::string& name : node.inputs) input_shapes.push_back(shape_of(name));
        steps.push_back(make_node_step(measure::NodeContext{node, input_shapes, shape_of(node.output)}, context));
      }
      unit_sources.push_back(std::move(sources));
      unit_targets.push_back(location_of(unit.output));
    }
    context.allocate_scratch();
  }

  const Shape& shape_of(const std::string& name) const {
    auto it = problem.tensor_shapes.find(name);
    if (it == problem.tensor_shapes.end())
      throw std::invalid_argument("problem " + problem.problem.name + ": tensor '" + name +
                                  "' has no resolved shape");
    return it->second;
  }
  TensorLocation location_of(const std::string& name) const {
    auto it = plan.tensors.find(name);
    if (it == plan.tensors.end())
      throw std::invalid_argument("problem " + problem.problem.name + ": tensor '" + name +
                                  "' is read before any node writes it");
    return it->second;
  }

  ResolvedProblem problem;
  MathMode math_mode;  // as asked for (reading context.mode() would count as a decision by it)
  measure::LibraryContext context;
  std::vector<BaselineUnit> units;
  BufferPlan plan;
  std::vector<measure::DeviceMemory> slots;
  std::vector<std::unique_ptr<measure::NodeStep>> steps;  // one per unit
  std::vector<std::vector<TensorLocation>> unit_sources;
  std::vector<TensorLocation> unit_targets;
  std::vector<const float*> gathered;  // reused per unit, no allocation per call
};

CudaBaseline::CudaBaseline(const ResolvedProblem& problem, MathMode mode, bool fuse_elementwise)
    : impl_(std::make_unique<Impl>(problem, mode, fuse_elementwise)) {}
CudaBaseline::~CudaBaseline() = default;
CudaBaseline::CudaBaseline(CudaBaseline&&) noexcept = default;
CudaBaseline& CudaBaseline::operator=(CudaBaseline&&) noexcept = default;

void CudaBaseline::run(const std::vector<const float*>& inputs,
                       const std::vector<float*>& outputs, cudaStream_t stream) {
  Impl& s = *impl_;
  if (inputs.size() != s.problem.input_shapes.size() ||
      outputs.size() != s.problem.output_shapes.size())
    throw std::invalid_argument("baseline of " + s.problem.problem.name + ": got " +
                                std::to_string(inputs.size()) + " inputs and " +
                                std::to_string(outputs.size()) + " outputs, expected " +
                                std::to_string(s.problem.input_shapes.size()) + " and " +
                                std::to_string(s.problem.output_shapes.size()));
  const auto pointer = [&](const TensorLocation& where) -> float* {
    switch (where.kind) {
      case TensorLocation::Kind::input: return const_cast<float*>(inputs[where.index]);
      case TensorLocation::Kind::output: return outputs[where.index];
      case TensorLocation::Kind::slot: return s.slots[where.index].as<float>();
    }
    return nullptr;
  };
  s.context.bind_stream(stream);
  for (size_t u = 0; u < s.steps.size(); ++u) {
    s.gathered.clear();
    for (const TensorLocation& source : s.unit_sources[u]) s.gathered.push_back(pointer(source));
    s.steps[u]->run(s.gathered, pointer(s.unit_targets[u]), stream);
  }
}

size_t CudaBaseline::workspace_bytes() const {
  return impl_->plan.intermediate_bytes() + impl_->context.held_bytes();
}

size_t CudaBaseline::intermediate_bytes() const { return impl_->plan.intermediate_bytes(); }

MathMode CudaBaseline::math_mode() const { return impl_->math_mode; }

bool CudaBaseline::depends_on_math_mode() const { return impl_->context.mode_may_matter(); }

std::string CudaBaseline::describe() const {
  std::string text;
  const auto& graph = impl_->problem.problem.graph;
  for (size_t u = 0; u < impl_->units.size(); ++u) {
    std::string names, ops;
    for (size_t n : impl_->units[u].nodes) {
      names += (names.empty() ? "" : "+") + graph[n].name;
      ops += (ops.empty() ? "" : "+") + graph[n].op;
    }
    text += names + " (" + ops + "): " + impl_->steps[u]->describe() + "\n";
  }
  return text;
}

}  // namespace kbv::cuda
