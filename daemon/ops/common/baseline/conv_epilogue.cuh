// ops/common/baseline/conv_epilogue.cuh — the convolution epilogue as the transpose kernel runs it
// (conv_epilogue.hpp): the channel bias, then the folded chain (fused_chain.cuh), each lane's other
// operands read by its channel. Host code too (tests play it without a GPU).
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "measure/baseline/conv_epilogue_fold.hpp"
#include "ops/common/baseline/batched_transpose.cuh"
#include "ops/common/baseline/fused_chain.cuh"

namespace kbv::ops::baseline {

// Input k of channel c at pointers[k][c * channel_stride[k]] (a stride of 0: one value for every
// channel); bias, when not null, is added first. The chain runs through the rolled interpreter
// (chain::run_chain_rolled): the unrolled one made the wide output pass 1.126 ms against 0.765
// rolled (H100, r82, conv2d_relu_biasadd's relu → add; kbv_bench_cuda_timing --conv-passes).
struct ChannelChain {
  static constexpr transpose::WideMapping kWideMapping = transpose::WideMapping::two_lines;  // batched_transpose.cuh says why
  chain::ChainCode code;
  const float* bias = nullptr;
  const float* pointers[cuda::kMaxFusedInputs] = {};
  int64_t channel_stride[cuda::kMaxFusedInputs] = {};

  // The narrow form: lane l of channel columns[l].
  __host__ __device__ __forceinline__ void operator()(float (&values)[transpose::kLanes], const int64_t (&columns)[transpose::kLanes]) const {
    transpose::ColumnBias{bias}(values, columns);
    chain::run_chain_rolled<transpose::kLanes>(code, values, [&](int k, float (&operand)[transpose::kLanes]) {
KBV_UNROLL
      for (int l = 0; l < transpose::kLanes; ++l) operand[l] = pointers[k][columns[l] * channel_stride[k]];
    });
  }

  // The wide form: four values of one channel, each operand read once.
  __host__ __device__ __forceinline__ void operator()(float (&values)[transpose::kVector], int64_t column) const {
    transpose::ColumnBias{bias}(values, column);
    chain::run_chain_rolled<transpose::kVector>(code, values, [&](int k, float (&operand)[transpose::kVector]) {
      const float value = pointers[k][column * channel_stride[k]];
KBV_UNROLL
      for (int v = 0; v < transpose::kVector; ++v) operand[v] = value;
    });
  }
};

// Whether `code` is "relu, then + input 0" (the value so far on either side of the add):
// conv2d_relu_biasadd's chain, which ReluThenChannelAdd runs written out.
inline bool is_relu_then_add(const chain::ChainCode& code) {
  if (code.instructions != 2) return false;
  const chain::Instruction& relu = code.code[0];
  const chain::Instruction& add = code.code[1];
  const auto value = [](const chain::Operand& o) { return !o.is_input; };
  const auto input0 = [](const chain::Operand& o) { return o.is_input && o.index == 0; };
  return relu.op == chain::FusedOp::relu && relu.arity == 1 && value(relu.operands[0]) && add.op == chain::FusedOp::add && add.arity == 2 &&
         ((value(add.operands[0]) && input0(add.operands[1])) || (input0(add.operands[0]) && value(add.operands[1])));
}

// A ChannelChain whose code is_relu_then_add, written out: the bias, relu, then input 0's value for
// the channel added, through the same op definitions the interpreter calls, without its
// instruction loop. The interpreter's per-instruction work was the output pass's cost: the long-row
// pass took 0.705 ms with the rolled chain and 0.538 with this chain written out, 0.520 with the
// bias alone (H200, r91; bench/cuda_timing/conv_pass_variants.cu, ReluAddWrittenOut), and that pass
// was conv2d_relu_biasadd's whole gap to torch.compile (H100 r95: 0.829 ms against Triton's 0.679).
struct ReluThenChannelAdd {
  static constexpr transpose::WideMapping kWideMapping = ChannelChain::kWideMapping;
  ChannelChain chain;  // is_relu_then_add(chain.code); its bias, operand 0 and params are read

  __host__ __device__ __forceinline__ float apply(float value, int64_t column, float operand) const {
    const float biased = chain.bias == nullptr ? value : value + chain.bias[column];
    const float activated = chain::apply_definition<::kbv::ops::relu::Definition>(biased, 0.f, chain.code.code[0].params);
    return chain.code.code[1].operands[0].is_input ? chain::apply_definition<::kbv::ops::add::Definition>(operand, activated, chain.code.code[1].params)
                                                   : chain::apply_definition<::kbv::ops::add::Definition>(activated, operand, chain.code.code[1].params);
  }
  __host__ __device__ __forceinline__ void operator()(float (&values)[transpose::kLanes], const int64_t (&columns)[transpose::kLanes]) const {
KBV_UNROLL
    for (int l = 0; l < transpose::kLanes; ++l)
      values[l] = apply(values[l], columns[l], chain.pointers[0][columns[l] * chain.channel_stride[0]]);
  }
  __host__ __device__ __forceinline__ void operator()(float (&values)[transpose::kVector], int64_t column) const {
    const float operand = chain.pointers[0][column * chain.channel_stride[0]];
KBV_UNROLL
    for (int v = 0; v < transpose::kVector; ++v) values[v] = apply(values[v], column, operand);
  }
};

// The chain of a folded unit (unit.conv_epilogue: nodes[0] the convolution, inputs its inputs and
// then the chain's others) with each other input's channel stride; pointers and bias unset.
// `description` gets "relu → add". Throws std::invalid_argument for a unit the epilogue cannot run:
// another output shape, an operand that is not one value per channel (or one in all).
inline ChannelChain make_channel_chain(const ResolvedProblem& problem, const cuda::BaselineUnit& unit, std::string& description) {
  const Problem& spec = problem.problem;
  if (!unit.conv_epilogue || unit.nodes.size() < 2)
    throw std::invalid_argument("a convolution epilogue needs a folded unit: the convolution, then its elementwise chain");
  const Node& conv = spec.graph[unit.nodes.front()];
  const std::vector<size_t> tail(unit.nodes.begin() + 1, unit.nodes.end());
  const std::vector<std::string> others(unit.inputs.begin() + static_cast<std::ptrdiff_t>(conv.inputs.size()), unit.inputs.end());
  ChannelChain chain_of_unit;
  chain_of_unit.code = chain::compile_chain(spec, tail, others, conv.output, description);
  const Shape& out = problem.tensor_shapes.at(conv.output);
  if (problem.tensor_shapes.at(unit.output) != out)
    throw std::invalid_argument("the chain after node '" + conv.name + "' changes the convolution's output shape");
  for (size_t k = 0; k < others.size(); ++k) {
    const Shape& shape = problem.tensor_shapes.at(others[k]);
    if (!cuda::one_value_per_channel(shape, out))
      throw std::invalid_argument("'" + others[k] + "' " + kbv::to_string(shape) + " is not one value per channel of " + kbv::to_string(out) +
                                  "; a convolution epilogue reads its operands by channel");
    const std::vector<int64_t> strides = op_support::broadcast_strides(shape, out);
    chain_of_unit.channel_stride[k] = out.size() > cuda::kConvChannelAxis && out[cuda::kConvChannelAxis] > 1 ? strides[cuda::kConvChannelAxis] : 0;
  }
  return chain_of_unit;
}

}  // namespace kbv::ops::baseline
