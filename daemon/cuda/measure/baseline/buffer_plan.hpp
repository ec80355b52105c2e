// baseline/buffer_plan.hpp — where every tensor of a problem's graph lives while the eager
// baseline runs: the caller's input buffers, the caller's output buffers, or an intermediate
// slot. Slots are reused the way PyTorch eager's caching allocator reuses freed blocks, so the
// baseline holds what PyTorch would hold at its peak, allocated once up front.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "measure/baseline/elementwise_groups.hpp"
#include "spec/problem.hpp"

namespace kbv::cuda {

struct TensorLocation {
  enum class Kind { input, output, slot };
  Kind kind = Kind::input;
  size_t index = 0;  // into the inputs, the outputs or the slots
};

struct BufferPlan {
  std::map<std::string, TensorLocation> tensors;
  std::vector<size_t> slot_bytes;  // each rounded up to the allocator's block granularity
  size_t intermediate_bytes() const;
};

// PyTorch's CUDA caching allocator rounds every request up to a multiple of 512 bytes
// (c10/cuda/CUDACachingAllocator.cpp, kMinBlockSize).
constexpr size_t kAllocatorBlockBytes = 512;

// Intermediates (node outputs that are not problem outputs) get a slot each; a slot frees
// after the last node that reads its tensor, and a later intermediate takes the smallest free
// slot that is large enough (best fit), else a new slot — never a grown one, as a caching
// allocator cannot grow a block. Throws std::invalid_argument for graphs the CUDA baseline
// cannot run: a tensor produced twice, an output that no node produces.
BufferPlan plan_buffers(const ResolvedProblem& problem);
// The same over the units the baseline launches (elementwise_groups.hpp): a value inside a
// fused chain lives in registers and gets no slot.
BufferPlan plan_buffers(const ResolvedProblem& problem, const std::vector<BaselineUnit>& units);

}  // namespace kbv::cuda
