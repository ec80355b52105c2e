// eval/arena_layout.hpp — where every slot's inputs and outputs sit in the arena the worker
// shares with the evaluator (host memfd or CUDA device allocation alike).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

#include "spec/problem.hpp"

namespace kbv::eval {

// Tensors start on 256-byte boundaries, as cudaMalloc would place them.
constexpr size_t kTensorAlignment = 256;
// Slot 0 holds the correctness trials' buffers; the slots after it are the timing slots, which
// the timed samples rotate through (evaluation_timing.cpp).
constexpr int kCorrectnessSlot = 0;
constexpr int kFirstTimingSlot = 1;

struct TensorPlace {
  size_t offset = 0;  // bytes from the arena's base
  int64_t count = 0;  // elements
  DType dtype = DType::float32;  // an input's own; outputs are float32
  size_t bytes() const { return static_cast<size_t>(count) * element_bytes(dtype); }
};

struct SlotPlaces {
  std::vector<TensorPlace> inputs, outputs;
};

struct ArenaLayout {
  std::vector<SlotPlaces> slots;
  size_t bytes = 0;         // at least one alignment unit
  nlohmann::json slots_json; // the setup message's "slots": [{inputs|outputs: [{name, shape, dtype, offset}]}]
};

// Bytes one slot takes on its own (inputs then outputs, each aligned).
size_t slot_bytes(const ResolvedProblem& problem);
// Slot after slot, each tensor aligned; the correctness slot has a copy of everything, while the
// timing slots share one copy of each parameter input (role: parameter) and rotate the rest.
// Why: a model's weights stay at one address from call to call, in PyTorch's timing as in
// inference; four sets of L3 #1's 2.5 GB of weights in turn made each of its GEMMs ~20 % slower
// than on one set, the whole gap to PyTorch's process (docs/results/h100/parity.md, r100). Every
// sample still writes fresh contents into them and every timed output is rechecked, so a
// candidate that keeps anything by the parameters' address computes from stale values and fails
// (docs/threat-model.md, pattern 11; tests/eval/candidates/gemm_weight_cache_by_pointer.cpp).
ArenaLayout layout_arena(const ResolvedProblem& problem, int slots);
// Whether two slots have an input buffer in common (writing one slot's inputs changes the other's).
bool share_an_input(const SlotPlaces& a, const SlotPlaces& b);

}  // namespace kbv::eval
