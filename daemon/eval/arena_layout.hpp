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

// Bytes one slot takes (inputs then outputs, each aligned).
size_t slot_bytes(const ResolvedProblem& problem);
ArenaLayout layout_arena(const ResolvedProblem& problem, int slots);

}  // namespace kbv::eval
