// ops/common/baseline/fused_elementwise.hpp — the CUDA baseline step of a fused elementwise chain
// (measure/baseline/elementwise_groups.hpp): one kbv kernel that reads the chain's inputs once,
// with numpy broadcasting, applies every node's Definition::apply<float> in registers and
// writes the last node's output, as torch.compile's generated pointwise kernel does.
#pragma once

#include <memory>
#include <string_view>

#include "measure/baseline/elementwise_groups.hpp"
#include "measure/baseline/node_step.hpp"

namespace kbv::ops::baseline {

// How the kernel interprets the chain (fused_chain.cuh): run_chain_rolled's one copy of the op
// switch, the library's, or run_chain's unrolled instruction loop, which kbv_bench_cuda_timing
// --fused-chains times beside it. Over the 108 chains of the problems' default shapes rolled took
// 56.8 ms against 59.3 (H100, r85a: faster on 95, the others within 1.8 %) and 55.8 against 58.5
// (H200, r88: faster on 90; shufflenet's relu → add 2 % slower, ~10 µs chains up to 7.5 %); and
// the convolution epilogue's pass 0.765 ms against 1.117 (H100, r82).
enum class ChainLoop { unrolled, rolled };

// Whether the fused kernel runs `op`: every elementwise op (ops/elementwise_list.inc).
bool fusable_elementwise(std::string_view op);

// The step of a fused unit of `problem` (unit.fused(), every node fusable). Its run() takes the
// unit's inputs in unit.inputs order. Throws std::invalid_argument (OpError for attributes an op
// refuses) when the chain does not fit the kernel: more than kMaxFusedNodes nodes, more than
// kMaxFusedInputs inputs, or a broadcast beyond kMaxBroadcastRank coalesced dims.
std::unique_ptr<cuda::measure::NodeStep> make_fused_elementwise_step(const ResolvedProblem& problem,
                                                                     const cuda::BaselineUnit& unit,
                                                                     ChainLoop loop = ChainLoop::rolled);

}  // namespace kbv::ops::baseline
