// tensor/dtype.hpp — the element types a problem input can have, as the candidate receives it:
// float32 (the default, and the type of every output and intermediate), int64 (class indices,
// torch.long) and bool (masks, torch.bool: one byte holding 0 or 1).
//
// The trusted side computes with floating-point values: its fp64 reference and fp32 baselines
// read an int64 or bool input widened to double or float, which is exact for 0/1 and for every
// integer of magnitude ≤ 2^24 (kMaxExactIntegerInFloat; the loader refuses int64 ranges past it).
// Where the widening happens: eval/host_data_plane.cpp (prepare) and eval/cuda_data_plane.cpp
// (data/device_inputs.hpp's widen kernels).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace kbv {

enum class DType : uint8_t { float32, int64, boolean };

// float32 represents every integer of magnitude ≤ 2^24 exactly (24-bit significand).
constexpr int64_t kMaxExactIntegerInFloat = int64_t{1} << 24;

constexpr size_t element_bytes(DType dtype) {
  switch (dtype) {
    case DType::int64: return 8;
    case DType::boolean: return 1;
    case DType::float32: break;
  }
  return 4;
}

// "float32", "int64", "bool": the names in problem specs, setup messages and manifests.
constexpr std::string_view dtype_name(DType dtype) {
  switch (dtype) {
    case DType::int64: return "int64";
    case DType::boolean: return "bool";
    case DType::float32: break;
  }
  return "float32";
}

constexpr std::optional<DType> dtype_from_name(std::string_view name) {
  for (DType dtype : {DType::float32, DType::int64, DType::boolean})
    if (dtype_name(dtype) == name) return dtype;
  return std::nullopt;
}

// The values an int64 input is drawn from: [low, high), as torch.randint(low, high).
struct IntegerRange {
  int64_t low = 0;
  int64_t high = 0;
};

}  // namespace kbv
