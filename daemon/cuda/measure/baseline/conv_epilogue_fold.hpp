// baseline/conv_epilogue_fold.hpp — a 2-D convolution whose output only feeds an elementwise
// chain that reads, besides it, one value per output channel (a bias, a scale: KernelBench level
// 2's conv → relu → + bias and its kin) runs the chain as the convolution's epilogue
// (ops/common/baseline/conv_epilogue.hpp), as torch.compile fuses the same tail: the chain's
// separate pass read and wrote the whole output once more.
#pragma once

#include <functional>
#include <string_view>
#include <vector>

#include "measure/baseline/elementwise_groups.hpp"
#include "spec/problem.hpp"

namespace kbv::cuda {

// Merges each conv2d unit with the unit right after it when: every node of that unit is
// `fusable`; its first node reads the convolution's output and no later node does; nothing
// outside it reads that output, which is no problem output; its output has the convolution's
// shape; and each of its other inputs broadcasts into that shape with one value per channel
// (axis 1) or one in all. The merged unit has conv_epilogue set, the convolution's inputs and
// then the chain's others, and the chain's output. Other units are left as they are.
inline constexpr size_t kConvChannelAxis = 1;  // NCHW

// Whether an operand of `shape`, broadcast into the convolution's output `out` (NCHW), holds one
// value per channel (axis 1), or one in all: what the epilogue can read by channel.
bool one_value_per_channel(const Shape& shape, const Shape& out);

std::vector<BaselineUnit> fold_conv_epilogues(const ResolvedProblem& problem, std::vector<BaselineUnit> units,
                                              const std::function<bool(std::string_view op)>& fusable);

}  // namespace kbv::cuda
