// inputs/generate.cpp — host input generation, element by element from Philox counters.
#include "inputs/generate.hpp"

#include "inputs/discrete_families.hpp"

namespace kbv::inputs {

void generate_host(float* dst, int64_t count, Family family, const FamilyParams& params, uint64_t seed, uint32_t tensor,
                   const TensorAxes& geometry, double scale, InputDomain domain) {
  const TensorAxes axes = structured_axes(geometry, params.structure, tensor);
  for (int64_t i = 0; i < count; ++i)
    dst[i] = generate_element(family, params, seed, tensor, static_cast<uint64_t>(i), axes, scale, domain);
}

void generate_host_typed(void* dst, DType dtype, int64_t count, Family family, const FamilyParams& params, uint64_t seed,
                         uint32_t tensor, const TensorAxes& geometry, double scale, IntegerRange range, InputDomain domain) {
  if (dtype == DType::float32) return generate_host(static_cast<float*>(dst), count, family, params, seed, tensor, geometry, scale, domain);
  const TensorAxes axes = structured_axes(geometry, params.structure, tensor);
  if (dtype == DType::int64) {
    auto* out = static_cast<int64_t*>(dst);
    for (int64_t i = 0; i < count; ++i)
      out[i] = integer_value(family, params, seed, tensor, static_cast<uint64_t>(i), axes, range.low, range.high);
    return;
  }
  auto* out = static_cast<uint8_t*>(dst);
  for (int64_t i = 0; i < count; ++i) out[i] = mask_value(family, params, seed, tensor, static_cast<uint64_t>(i), axes);
}

TensorAxes vector_axes(int64_t count) { return axes_of_shape(&count, 1); }

TensorAxes matrix_axes(int64_t rows, int64_t row) {
  const int64_t dims[] = {rows, row};
  return axes_of_shape(dims, 2);
}

}  // namespace kbv::inputs
