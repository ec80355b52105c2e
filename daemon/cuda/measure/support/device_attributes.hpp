// measure/support/device_attributes.hpp — attributes of the current device that baselines size
// their grids by (SM count, L2 size), asked of the driver once per device and then cached.
#pragma once

#include <cstddef>

namespace kbv::cuda::measure {

// Throw CudaError when CUDA fails.
int current_sm_count();
size_t current_l2_bytes();

}  // namespace kbv::cuda::measure
