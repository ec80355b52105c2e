// eval/arena_layout.cpp — consecutive, aligned tensors, slot after slot.
#include "eval/arena_layout.hpp"

#include <algorithm>

namespace kbv::eval {

namespace {
size_t aligned_bytes(const Shape& shape, DType dtype) {
  const size_t bytes = element_bytes(dtype) * static_cast<size_t>(numel(shape));
  return (bytes + kTensorAlignment - 1) / kTensorAlignment * kTensorAlignment;
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
  auto place = [&](const TensorDecl& decl, const Shape& shape, std::vector<TensorPlace>& where, nlohmann::json& list) {
    where.push_back({offset, numel(shape), decl.dtype});
    list.push_back({{"name", decl.name}, {"shape", shape}, {"dtype", std::string(dtype_name(decl.dtype))}, {"offset", offset}});
    offset += aligned_bytes(shape, decl.dtype);
  };
  for (int s = 0; s < slots; ++s) {
    SlotPlaces slot;
    nlohmann::json slot_json = {{"inputs", nlohmann::json::array()}, {"outputs", nlohmann::json::array()}};
    for (size_t i = 0; i < problem.input_shapes.size(); ++i)
      place(problem.problem.inputs[i], problem.input_shapes[i], slot.inputs, slot_json["inputs"]);
    for (size_t i = 0; i < problem.output_shapes.size(); ++i)
      place(problem.problem.outputs[i], problem.output_shapes[i], slot.outputs, slot_json["outputs"]);
    layout.slots.push_back(std::move(slot));
    layout.slots_json.push_back(std::move(slot_json));
  }
  layout.bytes = std::max(offset, kTensorAlignment);
  return layout;
}

}  // namespace kbv::eval
