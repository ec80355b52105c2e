// inputs/generate.cpp — host input generation, element by element from Philox counters.
#include "inputs/generate.hpp"

namespace kbv::inputs {

void generate_host(float* dst, int64_t count, Family family, const FamilyParams& params, uint64_t seed, uint32_t tensor,
                   const TensorAxes& geometry, double scale, InputDomain domain) {
  const TensorAxes axes = structured_axes(geometry, params.structure, tensor);
  for (int64_t i = 0; i < count; ++i)
    dst[i] = generate_element(family, params, seed, tensor, static_cast<uint64_t>(i), axes, scale, domain);
}

TensorAxes vector_axes(int64_t count) { return axes_of_shape(&count, 1); }

TensorAxes matrix_axes(int64_t rows, int64_t row) {
  const int64_t dims[] = {rows, row};
  return axes_of_shape(dims, 2);
}

}  // namespace kbv::inputs
