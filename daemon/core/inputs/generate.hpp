// inputs/generate.hpp — fill host buffers from an input family (the host twin of the device
// generator in daemon/cuda/data).
#pragma once

#include <cstdint>

#include "inputs/families.hpp"
#include "tensor/dtype.hpp"

namespace kbv::inputs {

// dst[i] = generate_element(family, params, seed, tensor, i, axes, scale, domain), i < count,
// where axes = structured_axes(geometry, params.structure, tensor): the tensor's geometry
// (axes_of_shape()) with the lead axis the key picks.
void generate_host(float* dst, int64_t count, Family family, const FamilyParams& params, uint64_t seed, uint32_t tensor,
                   const TensorAxes& geometry, double scale, InputDomain domain = InputDomain::any);

// The same for an input of any dtype, into `count` elements of it at `dst`: float32 as above;
// int64 integer_value() in `range`, bool mask_value() as one byte 0 or 1
// (inputs/discrete_families.hpp; `scale` and `domain` apply to float32 only).
void generate_host_typed(void* dst, DType dtype, int64_t count, Family family, const FamilyParams& params, uint64_t seed,
                         uint32_t tensor, const TensorAxes& geometry, double scale, IntegerRange range,
                         InputDomain domain = InputDomain::any);

// A 1-D tensor of `count` elements, or rows of `row` elements: the geometries tests and
// `kbv export` use most.
TensorAxes vector_axes(int64_t count);
TensorAxes matrix_axes(int64_t rows, int64_t row);

}  // namespace kbv::inputs
