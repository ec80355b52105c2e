// baseline/cuda_baseline.cpp — builds the launch units (a node, or a fused elementwise chain),
// their steps and the buffer plan, then runs them.
#include "measure/baseline/cuda_baseline.hpp"

#include <algorithm>
#include <stdexcept>

#include "common/event.hpp"
#include "measure/baseline/buffer_plan.hpp"
#include "measure/baseline/conv_epilogue_fold.hpp"
#include "measure/baseline/elementwise_groups.hpp"
#include "measure/baseline/gemm_scale_fold.hpp"
#include "measure/baseline/library_context.hpp"
#include "measure/baseline/node_step.hpp"
#include "measure/support/handles.hpp"
#include "ops/common/baseline/cudnn_convolution.hpp"
#include "ops/common/baseline/fused_elementwise.hpp"

namespace kbv::cuda {

struct CudaBaseline::Impl {
  Impl(const ResolvedProblem& resolved, MathMode mode, bool fuse)
      : problem(resolved),
        math_mode(mode),
        context(mode),
        units(fuse ? fold_conv_epilogues(resolved, fold_gemm_scales(resolved, plan_units(resolved, ops::baseline::fusable_elementwise, fuse)),
                                         ops::baseline::fusable_elementwise)
                   : plan_units(resolved, ops::baseline::fusable_elementwise, fuse)),
        plan(plan_buffers(resolved, units)) {
    for (size_t s = 0; s < plan.slot_bytes.size(); ++s)
      slots.emplace_back(plan.slot_bytes[s], "baseline intermediate");
    for (const BaselineUnit& unit : units) {
      std::vector<TensorLocation> sources;
      for (const std::string& name : unit.inputs) sources.push_back(location_of(name));
      if (unit.fused()) {
        steps.push_back(ops::baseline::make_fused_elementwise_step(problem, unit));
      } else if (unit.conv_epilogue) {
        steps.push_back(ops::baseline::make_conv_epilogue_step(problem, unit, context));
      } else {
        const Node& node = problem.problem.graph[unit.nodes.front()];
        std::vector<Shape> input_shapes;
        for (const std::string& name : node.inputs) input_shapes.push_back(shape_of(name));
        steps.push_back(make_node_step(
            measure::NodeContext{node, input_shapes, shape_of(node.output), unit.gemm_scale.value_or(1.0), unit.gemm_relu}, context));
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
  void require_buffers(const std::vector<const float*>& inputs, const std::vector<float*>& outputs) const {
    if (inputs.size() != problem.input_shapes.size() || outputs.size() != problem.output_shapes.size())
      throw std::invalid_argument("baseline of " + problem.problem.name + ": got " + std::to_string(inputs.size()) + " inputs and " +
                                  std::to_string(outputs.size()) + " outputs, expected " + std::to_string(problem.input_shapes.size()) +
                                  " and " + std::to_string(problem.output_shapes.size()));
  }
  // A tensor's buffer in one call: an input, an output or an intermediate slot.
  float* locate(const TensorLocation& where, const std::vector<const float*>& inputs, const std::vector<float*>& outputs) const {
    switch (where.kind) {
      case TensorLocation::Kind::input: return const_cast<float*>(inputs[where.index]);
      case TensorLocation::Kind::output: return outputs[where.index];
      case TensorLocation::Kind::slot: return slots[where.index].as<float>();
    }
    return nullptr;
  }
  // Enqueues launch unit `u` on `stream`.
  void launch(size_t u, const std::vector<const float*>& inputs, const std::vector<float*>& outputs, cudaStream_t stream) {
    gathered.clear();
    for (const TensorLocation& source : unit_sources[u]) gathered.push_back(locate(source, inputs, outputs));
    steps[u]->run(gathered, locate(unit_targets[u], inputs, outputs), stream);
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
  s.require_buffers(inputs, outputs);
  s.context.bind_stream(stream);
  for (size_t u = 0; u < s.steps.size(); ++u) s.launch(u, inputs, outputs, stream);
}

std::vector<CudaBaseline::UnitTime> CudaBaseline::time_units(const std::vector<const float*>& inputs, const std::vector<float*>& outputs,
                                                              cudaStream_t stream, int runs) {
  Impl& s = *impl_;
  s.require_buffers(inputs, outputs);
  std::vector<Event> marks;
  for (size_t u = 0; u <= s.steps.size(); ++u) marks.emplace_back();
  std::vector<std::vector<double>> times(s.steps.size());
  s.context.bind_stream(stream);
  for (int run = 0; run < runs; ++run) {  // the units as run() launches them, an event after each
    marks[0].record(stream);
    for (size_t u = 0; u < s.steps.size(); ++u) {
      s.launch(u, inputs, outputs, stream);
      marks[u + 1].record(stream);
    }
    marks.back().synchronize();
    for (size_t u = 0; u < s.steps.size(); ++u) times[u].push_back(marks[u + 1].elapsed_ms_since(marks[u]) * 1e-3);
  }
  std::vector<UnitTime> result;
  for (size_t u = 0; u < s.steps.size(); ++u) {
    UnitTime unit;
    unit.describe = s.steps[u]->describe();
    std::vector<double>& samples = times[u];
    std::sort(samples.begin(), samples.end());
    unit.median_s = samples.empty() ? 0 : samples[samples.size() / 2];
    for (const std::string& name : s.units[u].inputs) unit.bytes += static_cast<double>(numel(s.shape_of(name))) * sizeof(float);
    unit.bytes += static_cast<double>(numel(s.shape_of(s.units[u].output))) * sizeof(float);
    result.push_back(std::move(unit));
  }
  return result;
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
