// daemon/ops/common/baseline/fused_elementwise.cu — the fused elementwise chain: its program
// (fused_chain.cuh) interpreted per element by one kernel, four consecutive outputs per thread
// where the innermost dim allows, every value in registers.
#include "ops/common/baseline/fused_elementwise.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "ops/common/baseline/fused_chain.cuh"

namespace kbv::ops::baseline {
namespace {

using chain::ChainCode;
using cuda::kMaxFusedInputs;

// The program and its launch geometry: output dims (size-1 dims dropped, contiguous runs merged
// for every input, as broadcast.cpp does for two) and each input's element strides.
struct FusedProgram {
  ChainCode chain;
  int inputs = 0;
  int rank = 0;
  int64_t dims[kMaxBroadcastRank] = {};
  int64_t strides[kMaxFusedInputs][kMaxBroadcastRank] = {};
  int64_t count = 0;
  const float* pointers[kMaxFusedInputs] = {};  // set per launch; kept in the one parameter block
};

// Input k's kLanes consecutive values at `coordinate` (the first output's), read from global
// memory where the instruction uses them: indexing a per-thread array by a runtime operand would
// put it in local memory (ptxas gave the former register file a 224-byte stack frame).
template <int kLanes>
__device__ __forceinline__ void load_input(const FusedProgram& p, int k,
                                           const int64_t (&coordinate)[kMaxBroadcastRank], float (&v)[kLanes]) {
  int64_t offset = 0;
#pragma unroll
  for (int d = 0; d < kMaxBroadcastRank; ++d)
    if (d < p.rank) offset += coordinate[d] * p.strides[k][d];
  if constexpr (kLanes == 4) {
    const float4 four = load4(p.pointers[k], offset, p.strides[k][p.rank - 1]);
    v[0] = four.x, v[1] = four.y, v[2] = four.z, v[3] = four.w;
  } else {
    v[0] = p.pointers[k][offset];
  }
}

// kLanes consecutive outputs from element `first` on (all within the innermost dim). The chain
// is linear (elementwise_groups.hpp): an operand is an input or the previous instruction's value,
// so one accumulator per lane is the whole register file.
// `Index`: uint32_t when the output has fewer than 2^32 elements (every coordinate then fits), else
// int64_t; a 64-bit division is a long emulated sequence, a 32-bit one a few instructions, and the
// coordinates cost two of them per group at rank 3.
template <int kLanes, class Index, bool kRolled>
__device__ __forceinline__ void run_program(const FusedProgram& p, int64_t first, float* y) {
  int64_t coordinate[kMaxBroadcastRank] = {};
  Index index = static_cast<Index>(first);
#pragma unroll
  for (int d = kMaxBroadcastRank - 1; d > 0; --d) {
    if (d >= p.rank) continue;
    const auto dim = static_cast<Index>(p.dims[d]);
    coordinate[d] = static_cast<int64_t>(index % dim);
    index /= dim;
  }
  coordinate[0] = static_cast<int64_t>(index);
  float acc[kLanes] = {};
  const auto load = [&](int k, float (&values)[kLanes]) { load_input<kLanes>(p, k, coordinate, values); };
  if constexpr (kRolled)
    chain::run_chain_rolled<kLanes>(p.chain, acc, load);
  else
    chain::run_chain<kLanes>(p.chain, acc, load);
  if constexpr (kLanes == 4)
    *reinterpret_cast<float4*>(y + first) = make_float4(acc[0], acc[1], acc[2], acc[3]);
  else
    y[first] = acc[0];
}

template <int kLanes, class Index, bool kRolled>
__global__ void fused_elementwise_kernel(FusedProgram p, float* y) {
  const int64_t groups = p.count / kLanes;
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t g = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; g < groups; g += stride)
    run_program<kLanes, Index, kRolled>(p, g * kLanes, y);
}

template <int kLanes, bool kRolled>
void launch_fused(const FusedProgram& program, float* out, int64_t blocks, cudaStream_t stream) {
  if (program.count <= static_cast<int64_t>(UINT32_MAX))
    fused_elementwise_kernel<kLanes, uint32_t, kRolled><<<static_cast<unsigned>(blocks), kElementwiseThreads, 0, stream>>>(program, out);
  else
    fused_elementwise_kernel<kLanes, int64_t, kRolled><<<static_cast<unsigned>(blocks), kElementwiseThreads, 0, stream>>>(program, out);
}

// Grid cap: a grid-stride loop covers the rest (elementwise_f32.cuh's scalar cap).
constexpr int64_t kMaxFusedBlocks = int64_t{1} << 20;

// Dims of `out` with each input's strides, coalesced; throws when beyond kMaxBroadcastRank.
void fill_geometry(FusedProgram& p, const std::vector<Shape>& inputs, const Shape& out) {
  std::vector<std::vector<int64_t>> full;
  for (const Shape& shape : inputs) full.push_back(op_support::broadcast_strides(shape, out));
  std::vector<int64_t> dims;                             // innermost first while building
  std::vector<std::vector<int64_t>> strides(inputs.size());
  for (size_t d = out.size(); d-- > 0;) {
    if (out[d] == 1) continue;
    bool merges = !dims.empty();
    for (size_t k = 0; merges && k < inputs.size(); ++k) merges = full[k][d] == strides[k].back() * dims.back();
    if (merges) {
      dims.back() *= out[d];
      continue;
    }
    dims.push_back(out[d]);
    for (size_t k = 0; k < inputs.size(); ++k) strides[k].push_back(full[k][d]);
  }
  if (dims.empty()) {
    dims.push_back(1);
    for (auto& s : strides) s.push_back(0);
  }
  if (dims.size() > static_cast<size_t>(kMaxBroadcastRank))
    throw std::invalid_argument("fused elementwise chain over " + kbv::to_string(out) + " needs " + std::to_string(dims.size()) +
                                " dims after coalescing; the kernel handles " + std::to_string(kMaxBroadcastRank));
  p.rank = static_cast<int>(dims.size());
  for (int d = 0; d < p.rank; ++d) {
    const size_t from = dims.size() - 1 - static_cast<size_t>(d);
    p.dims[d] = dims[from];
    for (size_t k = 0; k < inputs.size(); ++k) p.strides[k][d] = strides[k][from];
  }
  p.count = numel(out);
}

class FusedElementwiseStep final : public cuda::measure::NodeStep {
 public:
  FusedElementwiseStep(const ResolvedProblem& problem, const cuda::BaselineUnit& unit, ChainLoop loop) : loop_(loop) {
    program_.chain = chain::compile_chain(problem.problem, unit.nodes, unit.inputs, "", chain_);
    program_.inputs = static_cast<int>(unit.inputs.size());
    std::vector<Shape> input_shapes;
    for (const std::string& name : unit.inputs) input_shapes.push_back(problem.tensor_shapes.at(name));
    fill_geometry(program_, input_shapes, problem.tensor_shapes.at(unit.output));
  }

  void run(std::span<const float* const> in, float* out, cudaStream_t stream) override {
    if (program_.count <= 0) return;
    FusedProgram program = program_;
    bool vector = program_.dims[program_.rank - 1] % kElementsPerVector == 0 && device::aligned16(out);
    for (int k = 0; k < program_.inputs; ++k) {
      program.pointers[k] = in[static_cast<size_t>(k)];
      if (program_.strides[k][program_.rank - 1] == 1 && !device::aligned16(in[static_cast<size_t>(k)])) vector = false;
    }
    const int lanes = vector ? kElementsPerVector : 1;
    const int64_t blocks = std::clamp<int64_t>(blocks_for(program_.count / lanes, kElementwiseThreads), 1, kMaxFusedBlocks);
    const bool rolled = loop_ == ChainLoop::rolled;
    if (vector)
      rolled ? launch_fused<4, true>(program, out, blocks, stream) : launch_fused<4, false>(program, out, blocks, stream);
    else
      rolled ? launch_fused<1, true>(program, out, blocks, stream) : launch_fused<1, false>(program, out, blocks, stream);
    cuda::check_launch("kbv fused elementwise kernel");
  }

  std::string describe() const override {
    return "kbv fused elementwise kernel (" + chain_ + ") n=" + std::to_string(program_.count) + " rank=" + std::to_string(program_.rank) +
           (loop_ == ChainLoop::unrolled ? " unrolled" : "");
  }

 private:
  FusedProgram program_;
  std::string chain_;
  ChainLoop loop_;
};

}  // namespace

bool fusable_elementwise(std::string_view op) {
#define KBV_ELEMENTWISE_OP(OP_NAME) \
  if (op == ::kbv::ops::OP_NAME::Definition::name) return true;
#include "ops/elementwise_list.inc"
#undef KBV_ELEMENTWISE_OP
  return false;
}

std::unique_ptr<cuda::measure::NodeStep> make_fused_elementwise_step(const ResolvedProblem& problem, const cuda::BaselineUnit& unit,
                                                                     ChainLoop loop) {
  return std::make_unique<FusedElementwiseStep>(problem, unit, loop);
}

}  // namespace kbv::ops::baseline
