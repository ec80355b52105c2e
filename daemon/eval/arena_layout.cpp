// eval/arena_layout.cpp — consecutive, aligned tensors, slot after slot; the timing slots share
// their parameter inputs.
#include "eval/arena_layout.hpp"

#include <algorithm>
#include <optional>

namespace kbv::eval {

namespace {
size_t aligned_bytes(const Shape& shape, DType dtype) {
  const size_t bytes = element_bytes(dtype) * static_cast<size_t>(numel(shape));
  return (bytes + kTensorAlignment - 1) / kTensorAlignment * kTensorAlignment;
}

bool shared_between_timing_slots(const ResolvedProblem& problem, size_t input) {
  return problem.problem.inputs[input].role == Role::parameter;
}
}  // namespace

size_t slot_bytes(const ResolvedProblem& problem) {
  size_t bytes = 0;
  for (size_t i = 0; i < problem.input_shapes.size(); ++i) bytes += aligned_bytes(problem.input_shapes[i], problem.input_dtype(i));
  for (const Shape& shape : problem.output_shapes) bytes += aligned_bytes(shape, DType::float32);
  return bytes;
}

ArenaLayout layout_arena(const ResolvedProblem& problem, int slots) {
  ArenaLayout layout;
  layout.slots_json = nlohmann::json::array();
  size_t offset = 0;
  // An output's TensorDecl keeps the default dtype, float32.
  auto place = [&](const TensorDecl& decl, const Shape& shape, std::vector<TensorPlace>& where, nlohmann::json& list,
                   std::optional<TensorPlace> existing = std::nullopt) {
    if (!existing) {
      existing = TensorPlace{offset, numel(shape), decl.dtype};
      offset += aligned_bytes(shape, decl.dtype);
    }
    where.push_back(*existing);
    list.push_back({{"name", decl.name}, {"shape", shape}, {"dtype", std::string(dtype_name(decl.dtype))}, {"offset", existing->offset}});
  };
  for (int s = 0; s < slots; ++s) {
    SlotPlaces slot;
    nlohmann::json slot_json = {{"inputs", nlohmann::json::array()}, {"outputs", nlohmann::json::array()}};
    for (size_t i = 0; i < problem.input_shapes.size(); ++i) {
      std::optional<TensorPlace> shared;
      if (s > kFirstTimingSlot && shared_between_timing_slots(problem, i)) shared = layout.slots[kFirstTimingSlot].inputs[i];
      place(problem.problem.inputs[i], problem.input_shapes[i], slot.inputs, slot_json["inputs"], shared);
    }
    for (size_t i = 0; i < problem.output_shapes.size(); ++i)
      place(problem.problem.outputs[i], problem.output_shapes[i], slot.outputs, slot_json["outputs"]);
    layout.slots.push_back(std::move(slot));
    layout.slots_json.push_back(std::move(slot_json));
  }
  layout.bytes = std::max(offset, kTensorAlignment);
  return layout;
}

bool share_an_input(const SlotPlaces& a, const SlotPlaces& b) {
  return std::any_of(a.inputs.begin(), a.inputs.end(), [&](const TensorPlace& x) {
    return std::any_of(b.inputs.begin(), b.inputs.end(), [&](const TensorPlace& y) { return x.offset == y.offset && x.count > 0 && y.count > 0; });
  });
}

}  // namespace kbv::eval
