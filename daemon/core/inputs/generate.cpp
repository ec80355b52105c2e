// inputs/generate.cpp — host input generation, element by element from Philox counters.
#include "inputs/generate.hpp"

namespace kbv::inputs {

void generate_host(float* dst, int64_t count, Family family, FamilyParams params, uint64_t seed,
                   uint32_t tensor, uint64_t row_length, double scale) {
  for (int64_t i = 0; i < count; ++i)
    dst[i] = generate_element(family, params, seed, tensor, static_cast<uint64_t>(i), row_length, scale);
}

}  // namespace kbv::inputs
