// inputs/generate.hpp — fill host buffers from an input family (the host twin of the device
// generator in daemon/cuda/data).
#pragma once

#include <cstdint>

#include "inputs/families.hpp"

namespace kbv::inputs {

// dst[i] = generate_element(family, params, seed, tensor, i, row_length, scale), i < count.
void generate_host(float* dst, int64_t count, Family family, FamilyParams params, uint64_t seed,
                   uint32_t tensor, uint64_t row_length, double scale);

}  // namespace kbv::inputs
