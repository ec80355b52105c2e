// ops/common/baseline/fused_chain.cuh — a linear chain of elementwise nodes as a small program
// (one instruction per node: op, attributes, operands) and its interpreter over a few lanes in
// registers. Two kernels run it: the fused elementwise kernel (fused_elementwise.cu), whose
// chain starts from the tensors it reads, and a convolution's epilogue (conv_epilogue.cuh), whose
// chain starts from the convolution's output value. The interpreter is host code too, so that
// tests without a GPU run the very code the kernels run (conv_epilogue_host_test.cu).
#pragma once

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "measure/baseline/elementwise_groups.hpp"
#include "ops/common/baseline/elementwise_f32.cuh"
#include "ops/elementwise_headers.inc"
#include "ops/op_support.hpp"

namespace kbv::ops::baseline::chain {

// Every elementwise op's number in the interpreter's switch: its place in the generated list.
enum class FusedOp : int {
#define KBV_ELEMENTWISE_OP(OP_NAME) OP_NAME,
#include "ops/elementwise_list.inc"
#undef KBV_ELEMENTWISE_OP
  count
};

// An instruction operand: the chain's input `index` (is_input), or the value so far (the previous
// instruction's, or the seed value before the first instruction).
struct Operand {
  bool is_input = true;
  int index = 0;
};

struct Instruction {
  FusedOp op = FusedOp::count;
  int arity = 1;
  Operand operands[2];
  Params<float> params{};
};

struct ChainCode {
  int instructions = 0;
  Instruction code[cuda::kMaxFusedNodes];
};

// One op's scalar function; a unary op ignores b.
template <class Definition>
__host__ __device__ __forceinline__ float apply_definition(float a, float b, const Params<float>& params) {
  if constexpr (is_unary<Definition>)
    return Definition::template apply<float>(a, params);
  else
    return Definition::template apply<float>(a, b, params);
}

// One instruction on every lane: the switch picks the op once per group of lanes, not once per
// lane (the fused kernel was compute-bound at 82 % of the SMs on the H100, 1.57 TB/s, while one
// kernel per node reached the memory's rate: ncu, conv2d_relu_biasadd's relu → add, 2026-12-05).
template <int kLanes>
__host__ __device__ __forceinline__ void apply_op(FusedOp op, const float (&a)[kLanes], const float (&b)[kLanes], const Params<float>& params,
                                         float (&out)[kLanes]) {
  switch (op) {
#define KBV_ELEMENTWISE_OP(OP_NAME)                                                                         \
  case FusedOp::OP_NAME:                                                                                    \
    KBV_UNROLL for (int l = 0; l < kLanes; ++l) out[l] =                                             \
        apply_definition<::kbv::ops::OP_NAME::Definition>(a[l], b[l], params);                              \
    return;
#include "ops/elementwise_list.inc"
#undef KBV_ELEMENTWISE_OP
    default:
      KBV_UNROLL for (int l = 0; l < kLanes; ++l) out[l] = a[l];
  }
}

// One instruction on every lane: its operands gathered (`load(k, values)` fills input k's value on
// every lane, called where the instruction uses it: indexing a per-thread array by a runtime
// operand would put it in local memory), then its op into `acc`.
template <int kLanes, class Load>
__host__ __device__ __forceinline__ void run_instruction(const Instruction& instruction, float (&acc)[kLanes], Load& load) {
  float operand[2][kLanes] = {};
KBV_UNROLL
  for (int o = 0; o < 2; ++o) {
    if (o >= instruction.arity) continue;
    if (instruction.operands[o].is_input) {
      load(instruction.operands[o].index, operand[o]);
    } else {
KBV_UNROLL
      for (int l = 0; l < kLanes; ++l) operand[o][l] = acc[l];
    }
  }
  apply_op<kLanes>(instruction.op, operand[0], operand[1], instruction.params, acc);
}

// Runs `code` on kLanes lanes; `acc` holds the seed on entry (unused by a chain whose first
// instruction reads only inputs) and the last instruction's value on return. The loop runs to a
// fixed maximum with `continue` past the program's end, so it unrolls: kMaxFusedNodes copies of
// the op switch.
template <int kLanes, class Load>
__host__ __device__ __forceinline__ void run_chain(const ChainCode& code, float (&acc)[kLanes], Load&& load) {
KBV_UNROLL
  for (int n = 0; n < static_cast<int>(cuda::kMaxFusedNodes); ++n) {
    if (n >= code.instructions) continue;
    run_instruction<kLanes>(code.code[n], acc, load);
  }
}

// run_chain with its instruction loop rolled: one copy of the op switch, what the library runs
// (the convolution epilogue's wide pass 1.117 → 0.765 ms, conv_epilogue.cuh; the fused kernel's
// chains 4 % faster in all, fused_elementwise.hpp).
template <int kLanes, class Load>
__host__ __device__ __forceinline__ void run_chain_rolled(const ChainCode& code, float (&acc)[kLanes], Load&& load) {
#ifdef __CUDA_ARCH__
#pragma unroll 1
#endif
  for (int n = 0; n < code.instructions; ++n) run_instruction<kLanes>(code.code[n], acc, load);
}

// The instruction for `node`: its op's number, arity and attribute values.
inline Instruction instruction_for(const Node& node) {
  Instruction instruction;
#define KBV_ELEMENTWISE_OP(OP_NAME)                                                                        \
  if (node.op == ::kbv::ops::OP_NAME::Definition::name) {                                                  \
    using Definition = ::kbv::ops::OP_NAME::Definition;                                                    \
    instruction.op = FusedOp::OP_NAME;                                                                     \
    instruction.arity = is_unary<Definition> ? 1 : 2;                                                      \
    instruction.params = params_as<float>(read_params<Definition>(node.attrs));                            \
    return instruction;                                                                                    \
  }
#include "ops/elementwise_list.inc"
#undef KBV_ELEMENTWISE_OP
  throw std::invalid_argument("node '" + node.name + "' (" + node.op + ") is not an elementwise op the fused kernel runs");
}

// The program of `nodes` (a linear chain, in graph order) reading `inputs` by position. `seed`,
// when not empty, names the value the chain starts from (a convolution's output): only the first
// instruction may read it. `description` gets "relu → add". Throws std::invalid_argument for a
// chain the interpreter cannot run (too long, a node reading an earlier value of the chain, a
// seed read later, a tensor in neither `inputs` nor the chain).
inline ChainCode compile_chain(const Problem& spec, const std::vector<size_t>& nodes, const std::vector<std::string>& inputs,
                               const std::string& seed, std::string& description) {
  if (nodes.size() > cuda::kMaxFusedNodes || inputs.size() > cuda::kMaxFusedInputs)
    throw std::invalid_argument("fused chain of " + std::to_string(nodes.size()) + " nodes reading " + std::to_string(inputs.size()) +
                                " tensors; the kernel takes at most " + std::to_string(cuda::kMaxFusedNodes) + " and " +
                                std::to_string(cuda::kMaxFusedInputs));
  ChainCode code;
  std::vector<std::string> values;  // the chain's nodes' outputs, in order
  for (size_t n : nodes) {
    const Node& node = spec.graph[n];
    Instruction instruction = instruction_for(node);
    if (node.inputs.size() != static_cast<size_t>(instruction.arity))
      throw std::invalid_argument("node '" + node.name + "' (" + node.op + ") has " + std::to_string(node.inputs.size()) + " inputs");
    for (int o = 0; o < instruction.arity; ++o) {
      const std::string& name = node.inputs[static_cast<size_t>(o)];
      const auto value = std::find(values.begin(), values.end(), name);
      if (value != values.end()) {
        if (value + 1 != values.end())
          throw std::invalid_argument("node '" + node.name + "' reads '" + name + "', a value of the chain other than the previous "
                                      "one; the fused kernel runs linear chains (plan_units cuts before such a node)");
        instruction.operands[o] = {false, 0};
      } else if (!seed.empty() && name == seed) {
        if (!values.empty())
          throw std::invalid_argument("node '" + node.name + "' reads '" + name + "', the value the chain starts from, after the chain's "
                                      "first node; only the first may");
        instruction.operands[o] = {false, 0};
      } else {
        const auto input = std::find(inputs.begin(), inputs.end(), name);
        if (input == inputs.end())
          throw std::invalid_argument("node '" + node.name + "' reads '" + name + "', which the chain is not given");
        instruction.operands[o] = {true, static_cast<int>(input - inputs.begin())};
      }
    }
    code.code[code.instructions++] = instruction;
    values.push_back(node.output);
    description += (description.empty() ? "" : " → ") + node.op;
  }
  return code;
}

}  // namespace kbv::ops::baseline::chain
